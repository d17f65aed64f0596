import { hmacSha256Hex } from '../security/hmac.ts';

/** What a signed pull states about itself (docs/webhooks.md, "Signed pulls"). */
export interface PullStatement {
  /** The saved URL exactly as the owner's config shows it. */
  url: string;
  calcId: string;
  /** The page's origin that passed the domain check. */
  origin: string;
  /** The verified visitor, if any. */
  visitor: string | null;
}

/**
 * The `Calc-*` headers of a pull: who it is for, and `Calc-Signature: t=<unix
 * seconds>,v1=<hex HMAC-SHA256>` over `<t>.GET.<url>.<calcId>.<origin>.<visitor or
 * empty>`, one `v1` per active secret (two during a rotation's overlap, current first).
 */
export function signedPullHeaders(
  statement: PullStatement,
  secrets: readonly string[],
  nowSeconds: number,
): Record<string, string> {
  const t = Math.floor(nowSeconds);
  const message = `${t}.GET.${statement.url}.${statement.calcId}.${statement.origin}.${statement.visitor ?? ''}`;
  let signature = `t=${t}`;
  for (const secret of secrets) signature += `,v1=${hmacSha256Hex(secret, message)}`;
  const headers: Record<string, string> = {
    'Calc-Calculator': statement.calcId,
    'Calc-Origin': statement.origin,
    'Calc-Signature': signature,
  };
  if (statement.visitor !== null) headers['Calc-Visitor'] = statement.visitor;
  return headers;
}
