import type { ResultsEndpointRow } from '../db/results-endpoint-store.ts';
import type { HeaderCipher } from '../security/header-cipher.ts';

/**
 * An endpoint's secrets are sealed with the header cipher; the associated data names the
 * endpoint, so a sealed secret copied into another row (or read as a webhook header, or as
 * the account's signing secret) does not open.
 */
const sealedFor = (accountId: string) => `results-endpoint:${accountId}`;

export const sealEndpointSecret = (cipher: HeaderCipher, accountId: string, secret: string): string =>
  cipher.sealText(secret, sealedFor(accountId));

export const openEndpointSecret = (cipher: HeaderCipher, accountId: string, sealed: string): string =>
  cipher.openText(sealed, sealedFor(accountId));

/** How long the previous secret keeps signing after a rotation. */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** Whether the previous secret still signs at `now`. */
export function inOverlap(row: Pick<ResultsEndpointRow, 'previousSecret' | 'previousValidUntil'>, now: Date): boolean {
  return (
    row.previousSecret !== null && row.previousValidUntil !== null && Date.parse(row.previousValidUntil) > now.getTime()
  );
}

/** The secrets that sign an attempt at `now`: the current one, then the previous during its overlap. */
export function activeSecrets(cipher: HeaderCipher, row: ResultsEndpointRow, now: Date): string[] {
  const current = openEndpointSecret(cipher, row.accountId, row.secret);
  if (!inOverlap(row, now) || row.previousSecret === null) return [current];
  return [current, openEndpointSecret(cipher, row.accountId, row.previousSecret)];
}
