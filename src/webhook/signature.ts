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
 * The `v2` message: each field as its length in UTF-8 bytes, a colon and the field, one
 * after the other. A length says where each field ends, so no text can be moved from one
 * field to the next (origin `https://shop.example` with visitor `x.y` and origin
 * `https://shop.example.x` with visitor `y` are two messages), which `v1`'s dots allowed.
 */
function pullMessageV2(t: number, statement: PullStatement): string {
  let message = '';
  for (const field of [String(t), 'GET', statement.url, statement.calcId, statement.origin, statement.visitor ?? ''])
    message += `${Buffer.byteLength(field, 'utf8')}:${field}`;
  return message;
}

/**
 * The `v1` message, `<t>.GET.<url>.<calcId>.<origin>.<visitor or empty>`: fields that may
 * hold dots can be read two ways. Still sent during its deprecation period
 * (docs/webhooks.md, "Signature versions").
 */
function pullMessageV1(t: number, statement: PullStatement): string {
  return `${t}.GET.${statement.url}.${statement.calcId}.${statement.origin}.${statement.visitor ?? ''}`;
}

/**
 * The `Calc-*` headers of a pull: who it is for, and `Calc-Signature: t=<unix
 * seconds>,v1=<hex>,v2=<hex>`, HMAC-SHA256 of each version's message, one pair per
 * active secret (two during a rotation's overlap, current first).
 */
export function signedPullHeaders(
  statement: PullStatement,
  secrets: readonly string[],
  nowSeconds: number,
): Record<string, string> {
  const t = Math.floor(nowSeconds);
  const v1 = pullMessageV1(t, statement);
  const v2 = pullMessageV2(t, statement);
  let signature = `t=${t}`;
  for (const secret of secrets) signature += `,v1=${hmacSha256Hex(secret, v1)},v2=${hmacSha256Hex(secret, v2)}`;
  const headers: Record<string, string> = {
    'Calc-Calculator': statement.calcId,
    'Calc-Origin': statement.origin,
    'Calc-Signature': signature,
  };
  if (statement.visitor !== null) headers['Calc-Visitor'] = statement.visitor;
  return headers;
}
