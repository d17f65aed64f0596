import { jwt } from '@elysiajs/jwt';

interface SessionToken {
  token: string;
  expiresAt: string;
}

export interface TokenService {
  issue(accountId: string): Promise<SessionToken>;
  /** The account id of a valid token, or null (forged, expired, malformed, `alg: none`). */
  verify(token: string): Promise<string | null>;
}

/**
 * HS256 session tokens through @elysiajs/jwt's signer, taken out of its plugin so that
 * signing and checking are plain functions usable outside a route.
 */
export function createTokenService(
  secret: Uint8Array | string,
  lifetimeSeconds: number,
  now: () => Date,
): TokenService {
  const signer = jwt({ secret, alg: 'HS256' }).decorator.jwt;
  return {
    async issue(accountId) {
      const expires = Math.floor(now().getTime() / 1000) + lifetimeSeconds;
      const token = await signer.sign({ sub: accountId, exp: expires });
      return { token, expiresAt: new Date(expires * 1000).toISOString() };
    },
    async verify(token) {
      // Pinning the algorithm refuses `alg: none` and any asymmetric confusion.
      const payload = await signer.verify(token, { algorithms: ['HS256'], currentDate: now() });
      return payload && typeof payload.sub === 'string' && typeof payload.exp === 'number' ? payload.sub : null;
    },
  };
}
