import { availableParallelism } from 'node:os';
import { AppError, rateLimited } from '../errors.ts';
import type { LoginLimiter } from '../limits/login-limiter.ts';

/** What runs inside a slot: argon2id hashing and checking (each ~50–100 ms of a core, on purpose). */
interface Argon2 {
  hash(password: string): Promise<string>;
  verify(password: string, hash: string): Promise<boolean>;
}

/**
 * Password work, bounded: at most `concurrency` argon2 runs at once (one per core), a
 * bounded number of requests waits behind them, and past that a request answers 503
 * `busy` at once. So no stream of sign-ins, sign-ups or password checks can make another
 * owner's sign-in wait for more than the queue ahead of it (docs/security.md).
 */
export interface Passwords {
  /**
   * Takes a place for one request's password work, or 503 `busy` at once when every place
   * is taken. Checks that need no core (the sign-in limits) run before `argon2()`, which
   * waits for a core; `done()` gives the place back whatever happened (call it once).
   */
  enter(): PasswordPlace;
  /** 503 `busy` at once when every place is taken (a look, nothing taken): before work that is dear to undo. */
  ensureRoom(): void;
  /** `enter`, `argon2()`, `work`, `done()`: for work with nothing to check first. */
  run<T>(work: (argon2: Argon2) => Promise<T>): Promise<T>;
}

interface PasswordPlace {
  argon2(): Promise<Argon2>;
  done(): void;
}

const ARGON2: Argon2 = {
  hash: (password) => Bun.password.hash(password, { algorithm: 'argon2id' }),
  verify: (password, hash) => Bun.password.verify(password, hash),
};

/**
 * Waiting requests per slot. A check takes ~100 ms of a core on this project's 2-core
 * reference machine (more under load), so the work ahead of a newcomer stays a few tenths
 * of a second, within the second a sign-in may take while a stream of others runs.
 */
const QUEUE_PER_SLOT = 2;

/** Seconds a client is told to wait after `busy`: the queue drains within about one. */
const BUSY_RETRY_AFTER_SECONDS = 1;

export function createPasswords({
  concurrency = availableParallelism(),
  queue = concurrency * QUEUE_PER_SLOT,
}: {
  concurrency?: number;
  queue?: number;
} = {}): Passwords {
  let admitted = 0;
  let running = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
  const ensureRoom = () => {
    if (admitted >= concurrency + queue)
      throw new AppError('busy', 'The server is busy checking passwords. Try again in a second.', undefined, {
        'Retry-After': String(BUSY_RETRY_AFTER_SECONDS),
      });
  };
  const enter = (): PasswordPlace => {
    ensureRoom();
    admitted++;
    let holding = false;
    let left = false;
    return {
      async argon2() {
        if (!holding) {
          if (running < concurrency) running++;
          else await new Promise<void>((resolve) => waiting.push(resolve));
          holding = true;
        }
        return ARGON2;
      },
      done() {
        if (left) return;
        left = true;
        admitted--;
        if (holding) release();
      },
    };
  };
  return { enter, ensureRoom, run: (work) => runIn(enter(), work) };
}

async function runIn<T>(place: PasswordPlace, work: (argon2: Argon2) => Promise<T>): Promise<T> {
  try {
    return await work(await place.argon2());
  } finally {
    place.done();
  }
}

/** Unbounded, for operator commands on the machine (one account at a time). */
export const directPasswords: Passwords = (() => {
  const enter = (): PasswordPlace => ({ argon2: async () => ARGON2, done: () => {} });
  return { enter, ensureRoom: () => {}, run: (work) => runIn(enter(), work) };
})();

/** What checking a password needs: the sign-in counts and the bounded password work. */
export interface PasswordCheckDeps {
  limiter: LoginLimiter;
  passwords: Passwords;
}

const TOO_MANY = 'Too many sign-ins for this account or from this address.';

/**
 * One password check, in the order that keeps it cheap to refuse: 503 `busy` at once when
 * the bounded password work is full (nothing charged, no query); the sign-in limits
 * (charged before the slow check, so a parallel burst cannot slip past them); a place in
 * the password work (when others took the last one meanwhile, the charge is taken back and
 * the answer is 503 `busy` after all); then `check`, which may look the account up and
 * then waits for a core (`argon2()`). A right password counts as a sign-in (429 when a
 * parallel one got there first); a wrong one is 401 `invalid_credentials` with `wrong` as
 * its message. A refused request never holds a place, so a stream of them cannot fill the
 * queue.
 */
export async function provePassword(
  deps: PasswordCheckDeps,
  who: { email: string; clientIp: string },
  check: (argon2: () => Promise<Argon2>) => Promise<boolean>,
  wrong: string,
): Promise<void> {
  deps.passwords.ensureRoom();
  const wait = await deps.limiter.attempt(who.email, who.clientIp);
  if (wait !== null) throw rateLimited(TOO_MANY, wait);
  let place: PasswordPlace;
  try {
    place = deps.passwords.enter();
  } catch (error) {
    await deps.limiter.cancelled(who.email, who.clientIp);
    throw error;
  }
  try {
    if (!(await check(() => place.argon2()))) throw new AppError('invalid_credentials', wrong);
  } finally {
    place.done();
  }
  const over = await deps.limiter.succeeded(who.email, who.clientIp);
  if (over !== null) throw rateLimited(TOO_MANY, over);
}

/**
 * The signed-in owner proves the password again before something a stolen token alone
 * must not allow (a new password, deleting the account, the signing secret). Counted like
 * sign-ins, so a stolen token cannot be used to guess the password either.
 */
export function confirmPassword(
  deps: PasswordCheckDeps,
  account: { email: string; passwordHash: string },
  password: string,
  clientIp: string,
  wrong = 'The current password is wrong.',
): Promise<void> {
  return provePassword(
    deps,
    { email: account.email, clientIp },
    async (argon2) => (await argon2()).verify(password, account.passwordHash),
    wrong,
  );
}
