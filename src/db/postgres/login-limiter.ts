import { and, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import { clientGroup } from '../../limits/client-group.ts';
import { LOGIN_LIMITS, type LoginLimiter } from '../../limits/login-limiter.ts';
import type { PgDb } from './client.ts';
import { loginFailures } from './schema.ts';

/** The advisory lock class of one address group's sign-in counts ("clog"). */
const LOGIN_LOCK = 0x636c6f67;

/**
 * The login limiter of servers sharing a PostgreSQL database: the same windows and rules
 * as the in-memory one, with the counts in `login_failures`, so a guesser spreading tries
 * over every server behind a load balancer meets one limit. Each step takes a transaction
 * lock on the address group, so a parallel burst on several servers cannot slip through
 * between a check and a count.
 */
export function createPgLoginLimiter(db: PgDb, now: () => number = Date.now): LoginLimiter {
  const keysOf = (email: string, address: string) => {
    const group = clientGroup(address);
    return { group, pair: `pair ${group} ${email}`, address: `addr ${group}` };
  };
  const windowEnd = (ms: number, at: number) => (Math.floor(at / ms) + 1) * ms;
  const lock = (tx: Parameters<Parameters<PgDb['transaction']>[0]>[0], group: string) =>
    tx.execute(sql`SELECT pg_advisory_xact_lock(${LOGIN_LOCK}, hashtext(${group}))`);

  return {
    attempt: (email, address) =>
      db.transaction(async (tx) => {
        const keys = keysOf(email, address);
        const at = now();
        await lock(tx, keys.group);
        const rows = await tx
          .select()
          .from(loginFailures)
          .where(and(inArray(loginFailures.key, [keys.pair, keys.address]), gt(loginFailures.endsAt, at)));
        const limits = [
          { key: keys.pair, window: LOGIN_LIMITS.perEmailAndAddress },
          { key: keys.address, window: LOGIN_LIMITS.perAddress },
        ];
        let wait = 0;
        for (const { key, window } of limits) {
          const row = rows.find((r) => r.key === key);
          if (row && row.failures >= window.limit) wait = Math.max(wait, Math.ceil((row.endsAt - at) / 1000));
        }
        if (wait > 0) return wait;
        for (const { key, window } of limits) {
          const endsAt = windowEnd(window.ms, at);
          await tx
            .insert(loginFailures)
            .values({ key, endsAt, failures: 1 })
            .onConflictDoUpdate({
              target: loginFailures.key,
              // A count from an ended window starts over.
              set: {
                failures: sql`CASE WHEN ${loginFailures.endsAt} = excluded.ends_at THEN ${loginFailures.failures} + 1 ELSE 1 END`,
                endsAt: sql`excluded.ends_at`,
              },
            });
        }
        // Ended windows are dead weight; failed sign-ins are rare enough to sweep here.
        await tx.delete(loginFailures).where(lte(loginFailures.endsAt, at));
        return null;
      }),
    succeeded: (email, address) =>
      db.transaction(async (tx) => {
        const keys = keysOf(email, address);
        await lock(tx, keys.group);
        await tx.delete(loginFailures).where(eq(loginFailures.key, keys.pair));
        await tx
          .update(loginFailures)
          .set({ failures: sql`greatest(${loginFailures.failures} - 1, 0)` })
          .where(and(eq(loginFailures.key, keys.address), gt(loginFailures.endsAt, now())));
      }),
  };
}
