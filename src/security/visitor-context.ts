import { normaliseOrigin } from '../domains/origin.ts';
import { constantTimeEqual, hmacSha256Base64url } from './hmac.ts';

/**
 * Visitor context tokens: compact JWTs, HS256 only, signed with the account's signing
 * secret by the owner's backend (docs/webhooks.md). Hand-written rather than a JWT
 * library: the rules are few and strict, and the check runs inside widget loads
 * (docs/decisions.md, "Visitor context and signed pulls").
 */

/** Longer tokens are bad contexts, never parsed. */
const MAX_CONTEXT_CHARS = 2048;
/** `exp` may be at most this far ahead: a token is a short-lived statement. */
export const MAX_CONTEXT_LIFETIME_S = 24 * 60 * 60;
/**
 * 1–128 printable ASCII characters. No space at either end: it would not survive as an
 * HTTP header value, and the signed pull must carry it exactly.
 */
export const VISITOR_PATTERN = '^[\\x21-\\x7e](?:[\\x20-\\x7e]{0,126}[\\x21-\\x7e])?$';
const SUB = new RegExp(VISITOR_PATTERN);
const BASE64URL = /^[A-Za-z0-9_-]+$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: any byte above ASCII is the point
const NOT_ASCII = /[^\x00-\x7f]/;
const HEADER = { alg: 'HS256', typ: 'JWT' } as const;

export interface ContextClaims {
  sub: string;
  exp: number;
  calc?: string;
  origin?: string;
}

/** What a load expects of a token: its calculator, its page's origin, and the time. */
export interface ContextExpectation {
  calcId: string;
  origin: string;
  nowSeconds: number;
}

export function isVisitorId(value: string): boolean {
  return SUB.test(value);
}

/**
 * A segment's JSON object, or null. Claims are decoded only after the signature over
 * their exact text matched, so only the header (read before) needs the strict alphabet.
 */
function decodeObject(segment: string, strict: boolean): Record<string, unknown> | null {
  if (strict && !BASE64URL.test(segment)) return null;
  try {
    // atob gives one character per byte: exact for ASCII JSON, and twice as fast as a
    // Buffer; text with other bytes is decoded again as UTF-8.
    let text = atob(segment.replaceAll('-', '+').replaceAll('_', '/'));
    if (NOT_ASCII.test(text)) text = Buffer.from(segment, 'base64url').toString('utf8');
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

// Nearly every token carries one of a few header segments (`{"alg":"HS256","typ":"JWT"}`
// in some spelling): those already found acceptable skip the decode. Bounded.
const acceptedHeaders = new Set<string>();
const MAX_ACCEPTED_HEADERS = 64;

function headerAcceptable(segment: string): boolean {
  if (acceptedHeaders.has(segment)) return true;
  const header = decodeObject(segment, true);
  // HS256 only: never `none`, never an algorithm the token chooses; no extensions.
  if (header === null || header.alg !== HEADER.alg || header.crit !== undefined) return false;
  if (acceptedHeaders.size < MAX_ACCEPTED_HEADERS) acceptedHeaders.add(segment);
  return true;
}

function originMatches(claim: unknown, origin: string): boolean {
  if (claim === origin) return true;
  if (typeof claim !== 'string') return false;
  try {
    const normalised = normaliseOrigin(claim);
    return !normalised.wildcard && normalised.origin === origin;
  } catch {
    return false;
  }
}

/**
 * The token's `sub` when it is valid for this load, else null: any secret of `secrets`
 * may have signed it (a rotation's overlap). Never throws: a bad context only means
 * no visitor. The signature is checked (constant-time) before any claim is read.
 */
export function verifyContext(token: unknown, secrets: readonly string[], expected: ContextExpectation): string | null {
  if (typeof token !== 'string' || token.length > MAX_CONTEXT_CHARS) return null;
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [headerPart = '', claimsPart = '', signaturePart = ''] = parts;
  if (!headerAcceptable(headerPart)) return null;
  // 32 bytes in unpadded base64url: 43 characters, compared as text (no decoding).
  if (signaturePart.length !== 43) return null;
  const signingInput = `${headerPart}.${claimsPart}`;
  let signed = false;
  for (const secret of secrets) {
    // Every secret is tried, so the time taken does not tell which one matched.
    if (constantTimeEqual(hmacSha256Base64url(secret, signingInput), signaturePart)) signed = true;
  }
  if (!signed) return null;

  const claims = decodeObject(claimsPart, false);
  if (claims === null) return null;
  const { sub, exp, nbf, calc, origin } = claims;
  if (typeof exp !== 'number' || !Number.isFinite(exp)) return null;
  if (exp <= expected.nowSeconds || exp > expected.nowSeconds + MAX_CONTEXT_LIFETIME_S) return null;
  if (nbf !== undefined && (typeof nbf !== 'number' || nbf > expected.nowSeconds)) return null;
  if (typeof sub !== 'string' || !isVisitorId(sub)) return null;
  if (calc !== undefined && calc !== expected.calcId) return null;
  if (origin !== undefined && !originMatches(origin, expected.origin)) return null;
  return sub;
}

const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Mints a token as an owner's backend would (the CLI and tests). */
export function mintContext(secret: string, claims: ContextClaims): string {
  const signingInput = `${encode(HEADER)}.${encode(claims)}`;
  return `${signingInput}.${hmacSha256Base64url(secret, signingInput)}`;
}
