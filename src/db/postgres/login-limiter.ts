import { and, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import { clientGroup } from '../../limits/client-group.ts';
import { LOGIN_LIMITS, type LoginLimiter, SIGN_IN_WINDOW_MS, type SignInLimits } from '../../limits/login-limiter.ts';
import type { PgDb } from './client.ts';
import { loginFailures } from './schema.ts';

/** Keys at their sign-in limit remembered by one server at most (emptied when full). */
const MAX_REMEMBERED = 10_000;

/** The advisory lock class of one address group's sign-in counts ("clog"). */
const LOGIN_LOCK = 0x636c6f67;

type Tx = Parameters<Parameters<PgDb['transaction']>[0]>[0];

/**
 * The login limiter of servers sharing a PostgreSQL database: the same windows and rules
 * as the in-memory one, with the counts in `login_failures` (failures and successful
 * sign-ins alike, told apart by their keys), so a guesser spreading tries over every
 * server behind a load balancer meets one limit. Each step takes a transaction lock on
 * the address group, so a parallel burst on several servers cannot slip through between
 * a check and a count; a sign-in counted per account is counted by one atomic upsert,
 * as sign-ins on one account may come from several addresses at once.
 */
export function createPgLoginLimiter(
  db: PgDb,
  now: () => number = Date.now,
  signIns: SignInLimits = { perAccount: 0, perAddress: 0 },
): LoginLimiter {
  const keysOf = (email: string, address: string) => {
    const group = clientGroup(address);
    return {
      group,
      pair: `pair ${group} ${email}`,
      address: `addr ${group}`,
      accountSignIns: `signin account ${email}`,
      addressSignIns: `signin addr ${group}`,
    };
  };
  const windowEnd = (ms: number, at: number) => (Math.floor(at / ms) + 1) * ms;
  const lock = (tx: Tx, group: string) =>
    tx.execute(sql`SELECT pg_advisory_xact_lock(${LOGIN_LOCK}, hashtext(${group}))`);
  /** One more in the key's current window (a count from an ended window starts over); answers the count. */
  const countOne = async (tx: Tx, key: string, ms: number, at: number): Promise<number> => {
    const [row] = await tx
      .insert(loginFailures)
      .values({ key, endsAt: windowEnd(ms, at), failures: 1 })
      .onConflictDoUpdate({
        target: loginFailures.key,
        set: {
          failures: sql`CASE WHEN ${loginFailures.endsAt} = excluded.ends_at THEN ${loginFailures.failures} + 1 ELSE 1 END`,
          endsAt: sql`excluded.ends_at`,
        },
      })
      .returning({ failures: loginFailures.failures });
    return row?.failures ?? 1;
  };
  const takeBack = (tx: Tx, key: string, at: number) =>
    tx
      .update(loginFailures)
      .set({ failures: sql`greatest(${loginFailures.failures} - 1, 0)` })
      .where(and(eq(loginFailures.key, key), gt(loginFailures.endsAt, at)));

  // Sign-in counts only grow within their window (a count taken back over the limit stays
  // at it), so a key found at its limit stays there until the window ends: remembered
  // here, a stream of refused sign-ins costs no transaction. Failure counts shrink when a
  // sign-in succeeds, so they are always read from the database.
  const fullUntil = new Map<string, number>();
  const remember = (key: string, endsAt: number) => {
    if (fullUntil.size >= MAX_REMEMBERED) fullUntil.clear();
    fullUntil.set(key, endsAt);
  };
  const rememberedWait = (keys: string[], at: number): number | null => {
    let until = 0;
    for (const key of keys) {
      const endsAt = fullUntil.get(key);
      if (endsAt === undefined) continue;
      if (endsAt <= at) fullUntil.delete(key);
      else until = Math.max(until, endsAt);
    }
    return until === 0 ? null : Math.max(1, Math.ceil((until - at) / 1000));
  };

  return {
    attempt: async (email, address) => {
      const keys = keysOf(email, address);
      const remembered = rememberedWait([keys.accountSignIns, keys.addressSignIns], now());
      if (remembered !== null) return remembered;
      return db.transaction(async (tx) => {
        const at = now();
        await lock(tx, keys.group);
        const limits = [
          { key: keys.pair, window: LOGIN_LIMITS.perEmailAndAddress },
          { key: keys.address, window: LOGIN_LIMITS.perAddress },
          { key: keys.accountSignIns, window: { ms: SIGN_IN_WINDOW_MS, limit: signIns.perAccount } },
          { key: keys.addressSignIns, window: { ms: SIGN_IN_WINDOW_MS, limit: signIns.perAddress } },
        ].filter(({ window }) => window.limit > 0);
        const rows = await tx
          .select()
          .from(loginFailures)
          .where(
            and(
              inArray(
                loginFailures.key,
                limits.map(({ key }) => key),
              ),
              gt(loginFailures.endsAt, at),
            ),
          );
        let wait = 0;
        for (const { key, window } of limits) {
          const row = rows.find((r) => r.key === key);
          if (!row || row.failures < window.limit) continue;
          wait = Math.max(wait, Math.ceil((row.endsAt - at) / 1000));
          if (key === keys.accountSignIns || key === keys.addressSignIns) remember(key, row.endsAt);
        }
        if (wait > 0) return wait;
        await countOne(tx, keys.pair, LOGIN_LIMITS.perEmailAndAddress.ms, at);
        await countOne(tx, keys.address, LOGIN_LIMITS.perAddress.ms, at);
        // Ended windows are dead weight; failed sign-ins are rare enough to sweep here.
        await tx.delete(loginFailures).where(lte(loginFailures.endsAt, at));
        return null;
      });
    },
    succeeded: async (email, address) => {
      const keys = keysOf(email, address);
      const at = now();
      const end = windowEnd(SIGN_IN_WINDOW_MS, at);
      // The keys at their limit once this transaction has committed (remembered only then).
      const { wait, full } = await db.transaction(async (tx) => {
        await lock(tx, keys.group);
        await tx.delete(loginFailures).where(eq(loginFailures.key, keys.pair));
        await takeBack(tx, keys.address, at);
        const counted: string[] = [];
        const reached: string[] = [];
        for (const [key, limit] of [
          [keys.accountSignIns, signIns.perAccount],
          [keys.addressSignIns, signIns.perAddress],
        ] as const) {
          if (limit === 0) continue;
          counted.push(key);
          const n = await countOne(tx, key, SIGN_IN_WINDOW_MS, at);
          if (n > limit) {
            // Over: this sign-in is refused and counts nowhere; the key stays at its limit.
            for (const done of counted) await takeBack(tx, done, at);
            return { wait: Math.max(1, Math.ceil((end - at) / 1000)), full: [key] };
          }
          if (n === limit) reached.push(key);
        }
        return { wait: null, full: reached };
      });
      for (const key of full) remember(key, end);
      return wait;
    },
    cancelled: (email, address) =>
      db.transaction(async (tx) => {
        const keys = keysOf(email, address);
        const at = now();
        await lock(tx, keys.group);
        await takeBack(tx, keys.pair, at);
        await takeBack(tx, keys.address, at);
      }),
  };
}
