/**
 * HMAC-SHA256 keyed with a signing secret, for pull signatures and context tokens. Bun's
 * native hasher costs half of node:crypto's createHmac, and copying a hasher already keyed
 * with the secret skips the key set-up on every call (docs/performance.md, "Visitor
 * context"). Keyed hashers are kept per secret, bounded; emptied when full.
 */
const keyed = new Map<string, Bun.CryptoHasher>();
const MAX_KEYED = 10_000;

function hasherFor(secret: string): Bun.CryptoHasher {
  let hasher = keyed.get(secret);
  if (hasher === undefined) {
    hasher = new Bun.CryptoHasher('sha256', secret);
    if (keyed.size >= MAX_KEYED) keyed.clear();
    keyed.set(secret, hasher);
  }
  return hasher;
}

export function hmacSha256Hex(secret: string, message: string): string {
  return hasherFor(secret).copy().update(message).digest('hex');
}

export function hmacSha256Base64url(secret: string, message: string): string {
  return hasherFor(secret).copy().update(message).digest('base64url');
}

/**
 * Compares two strings in time that depends on their length only (never on where they
 * first differ). Used on signatures, whose length is public.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}
