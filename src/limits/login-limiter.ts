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

/** The window of the successful sign-in limits. */
export const SIGN_IN_WINDOW_MS = 60 * 1000;

/**
 * Successful sign-ins (a right password, wherever it is asked) per minute: per account
 * (its email) and per client address; 0 turns one off. Each costs an argon2 check, so a
 * loop of correct sign-ins on one account must not take the cores other owners need.
 */
export interface SignInLimits {
  perAccount: number;
  perAddress: number;
}

/**
 * Where sign-ins are counted. Asynchronous so that servers sharing a database can keep
 * the counts in it; one server keeps them in memory ({@link createLoginLimiter}).
 */
export interface LoginLimiter {
  /**
   * Before the password is checked, one step, so a parallel burst cannot slip through
   * between a check and a count: when neither the pair nor the address has had its
   * failures, and neither the account nor the address its sign-ins of the minute, charges
   * one failure to the pair and the address and answers null; otherwise charges nothing
   * and answers the seconds until this email may be tried from this address again.
   */
  attempt(email: string, address: string): Promise<number | null>;
  /**
   * The password was right: forgets the pair's failures, takes back the address's charge
   * and counts one sign-in for the account and the address. When either reached its
   * limit meanwhile (parallel sign-ins passed `attempt` together) the sign-in is refused:
   * counts nothing and answers the seconds to wait.
   */
  succeeded(email: string, address: string): Promise<number | null>;
  /** The password was not checked after all (the server was too busy): takes back what `attempt` charged. */
  cancelled(email: string, address: string): Promise<void>;
}

const NO_SIGN_IN_LIMITS: SignInLimits = { perAccount: 0, perAddress: 0 };

export function createLoginLimiter({
  now = () => Date.now(),
  capacity = 100_000,
  signIns = NO_SIGN_IN_LIMITS,
}: {
  now?: () => number;
  capacity?: number;
  signIns?: SignInLimits;
} = {}): LoginLimiter {
  const pairs = createRateLimiter({ windows: [LOGIN_LIMITS.perEmailAndAddress], capacity, now });
  const addresses = createRateLimiter({ windows: [LOGIN_LIMITS.perAddress], capacity, now });
  const perMinute = (limit: number) =>
    createRateLimiter({ windows: [{ ms: SIGN_IN_WINDOW_MS, limit }], capacity, now });
  const accountSignIns = perMinute(signIns.perAccount);
  const addressSignIns = perMinute(signIns.perAddress);
  const pairKey = (email: string, group: string) => `${group} ${email}`;

  return {
    async attempt(email, address) {
      const group = clientGroup(address);
      const pair = pairKey(email, group);
      const waits = [
        pairs.check(pair),
        addresses.check(group),
        accountSignIns.check(email),
        addressSignIns.check(group),
      ].filter((wait): wait is number => wait !== null);
      if (waits.length > 0) return Math.max(...waits);
      const full = pairs.add(pair);
      if (full !== null) return full;
      const addressFull = addresses.add(group);
      if (addressFull !== null) pairs.refund(pair);
      return addressFull;
    },
    async succeeded(email, address) {
      const group = clientGroup(address);
      pairs.reset(pairKey(email, group));
      addresses.refund(group);
      const accountWait = accountSignIns.take(email);
      if (accountWait !== null) return accountWait;
      const addressWait = addressSignIns.take(group);
      if (addressWait !== null) accountSignIns.refund(email);
      return addressWait;
    },
    async cancelled(email, address) {
      const group = clientGroup(address);
      pairs.refund(pairKey(email, group));
      addresses.refund(group);
    },
  };
}
