import { clientGroup } from './client-group.ts';
import { createRateLimiter, type RateWindow } from './rate-limiter.ts';

/**
 * Failed sign-ins are counted per (email, client address) and per client address, never
 * per email alone: a stranger guessing an owner's password from one address slows only
 * that address down, and the owner, from any other address, still signs in.
 */
export const LOGIN_LIMITS = {
  /** Guesses at one account from one address. */
  perEmailAndAddress: { ms: 15 * 60 * 1000, limit: 10 },
  /** Guesses at any accounts from one address (spraying one password over many emails). */
  perAddress: { ms: 15 * 60 * 1000, limit: 50 },
} as const satisfies Record<string, RateWindow>;

/**
 * Where failed sign-ins are counted. Asynchronous so that servers sharing a database can
 * keep the counts in it; one server keeps them in memory ({@link createLoginLimiter}).
 */
export interface LoginLimiter {
  /**
   * One step, so a parallel burst cannot slip through between a check and a count: when
   * neither the pair nor the address is limited, charges one failure to both (before the
   * password is checked) and answers null; otherwise charges nothing and answers the
   * seconds until this email may be tried from this address again.
   */
  attempt(email: string, address: string): Promise<number | null>;
  /** The password was right: forget the pair's failures, take back the address's charge. */
  succeeded(email: string, address: string): Promise<void>;
}

export function createLoginLimiter({ now = () => Date.now(), capacity = 100_000 } = {}): LoginLimiter {
  const pairs = createRateLimiter({ windows: [LOGIN_LIMITS.perEmailAndAddress], capacity, now });
  const addresses = createRateLimiter({ windows: [LOGIN_LIMITS.perAddress], capacity, now });
  const pairKey = (email: string, group: string) => `${group} ${email}`;

  return {
    async attempt(email, address) {
      const group = clientGroup(address);
      const pair = pairKey(email, group);
      const waits = [pairs.check(pair), addresses.check(group)].filter((wait): wait is number => wait !== null);
      if (waits.length > 0) return Math.max(...waits);
      pairs.add(pair);
      addresses.add(group);
      return null;
    },
    async succeeded(email, address) {
      const group = clientGroup(address);
      pairs.reset(pairKey(email, group));
      addresses.refund(group);
    },
  };
}
