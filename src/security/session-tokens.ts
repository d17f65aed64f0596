import { jwtVerify, SignJWT } from 'jose';

interface SessionToken {
  token: string;
  expiresAt: string;
}

export interface TokenService {
  /**
   * A token for the account, issued now, or at `notBefore` (ms) when that is later: a
   * token made in the same millisecond as a sign-out must still outlive it.
   */
  issue(accountId: string, notBefore?: number): Promise<SessionToken>;
  /** The account id and issue time (ms) of a valid token, or null (forged, expired, malformed, `alg: none`). */
  verify(token: string): Promise<{ accountId: string; issuedAt: number } | null>;
}

/**
 * HS256 session tokens with jose (what @elysiajs/jwt wraps, used directly because its
 * signer stamps `iat` from the wall clock in whole seconds: revoking "every token issued
 * until now" needs the injected clock and millisecond precision, which a fractional
 * NumericDate carries, as RFC 7519 allows).
 */
export function createTokenService(
  secret: Uint8Array | string,
  lifetimeSeconds: number,
  now: () => Date,
): TokenService {
  const key = typeof secret === 'string' ? new TextEncoder().encode(secret) : secret;
  return {
    async issue(accountId, notBefore = 0) {
      const issuedAt = Math.max(now().getTime(), notBefore);
      const expires = Math.floor(issuedAt / 1000) + lifetimeSeconds;
      const token = await new SignJWT({ sub: accountId })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuedAt(issuedAt / 1000)
        .setExpirationTime(expires)
        .sign(key);
      return { token, expiresAt: new Date(expires * 1000).toISOString() };
    },
    async verify(token) {
      try {
        // Pinning the algorithm refuses `alg: none` and any asymmetric confusion.
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], currentDate: now() });
        if (typeof payload.sub !== 'string' || typeof payload.exp !== 'number') return null;
        // A token without iat predates every revocation: it counts as issued at 0.
        return {
          accountId: payload.sub,
          issuedAt: typeof payload.iat === 'number' ? Math.round(payload.iat * 1000) : 0,
        };
      } catch {
        return null;
      }
    },
  };
}
