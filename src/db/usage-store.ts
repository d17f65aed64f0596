import { and, between, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import { accounts, usage, usageDaily, webhookDaily } from './schema.ts';

type MonthlyDelta = typeof usage.$inferSelect;
type LoadsDelta = typeof usageDaily.$inferSelect;
type CallsDelta = typeof webhookDaily.$inferSelect;

/** Everything one flush adds: monthly totals and the per-day rows behind them. */
export interface UsageDeltas {
  monthly: MonthlyDelta[];
  loads: LoadsDelta[];
  calls: CallsDelta[];
}

export interface DailyLoads {
  date: string;
  calcId: string;
  domain: string;
  loads: number;
}

export interface DailyCalls {
  date: string;
  calcId: string;
  outcome: string;
  calls: number;
}

// Rows per multi-row INSERT: well under SQLite's limit of bound variables per statement.
const CHUNK = 500;

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/**
 * Persistence of load counts: monthly totals (the quota) and per-day rows (the
 * analytics). The in-memory counter in front of it batches writes.
 */
export function createUsageStore(db: Db) {
  const loadsOf = db
    .select({ loads: usage.loads })
    .from(usage)
    .where(and(eq(usage.accountId, sql.placeholder('accountId')), eq(usage.period, sql.placeholder('period'))))
    .prepare();

  // A range holds up to days × calculators × origins rows: plain statements, since
  // drizzle's row mapping would cost more than the query (docs/performance.md).
  const dailyOf = db.$client.query<DailyLoads, { accountId: string; from: string; to: string }>(
    'SELECT day AS date, calc_id AS calcId, domain, loads FROM usage_daily WHERE account_id = $accountId AND day BETWEEN $from AND $to ORDER BY day, calc_id, domain',
  );
  const callsOf = db.$client.query<DailyCalls, { accountId: string; from: string; to: string }>(
    'SELECT day AS date, calc_id AS calcId, outcome, calls FROM webhook_daily WHERE account_id = $accountId AND day BETWEEN $from AND $to ORDER BY day, calc_id, outcome',
  );

  const sumOf = db
    .select({ loads: sql<number | null>`sum(${usageDaily.loads})` })
    .from(usageDaily)
    .where(
      and(
        eq(usageDaily.accountId, sql.placeholder('accountId')),
        between(usageDaily.day, sql.placeholder('from'), sql.placeholder('to')),
      ),
    )
    .prepare();

  // Plain statements: they answer how many rows went.
  const pruneLoads = db.$client.query<unknown, { day: string }>('DELETE FROM usage_daily WHERE day < $day');
  const pruneCalls = db.$client.query<unknown, { day: string }>('DELETE FROM webhook_daily WHERE day < $day');

  return {
    loads: (accountId: string, period: string): number => loadsOf.get({ accountId, period })?.loads ?? 0,

    /** Per-day rows of one account, `from`..`to` inclusive, sorted by date, calcId, domain. */
    dailyLoads: (accountId: string, from: string, to: string): DailyLoads[] => dailyOf.all({ accountId, from, to }),

    /** Per-day webhook outcomes of one account, sorted by date, calcId, outcome. */
    dailyCalls: (accountId: string, from: string, to: string): DailyCalls[] => callsOf.all({ accountId, from, to }),

    /** The stored loads of one account over `from`..`to` inclusive. */
    loadsBetween: (accountId: string, from: string, to: string): number =>
      sumOf.get({ accountId, from, to })?.loads ?? 0,

    /**
     * Adds every delta in one transaction, so the monthly total and the days behind it
     * never disagree. Counts of accounts deleted since they were made are dropped: the
     * rows would break the foreign key and hold back everyone else's counts.
     */
    addAll(deltas: UsageDeltas): void {
      if (deltas.monthly.length + deltas.loads.length + deltas.calls.length === 0) return;
      db.transaction((tx) => {
        const ids = [...new Set([...deltas.monthly, ...deltas.loads, ...deltas.calls].map((delta) => delta.accountId))];
        const live = new Set<string>();
        for (const part of chunks(ids)) {
          for (const row of tx.select({ id: accounts.id }).from(accounts).where(inArray(accounts.id, part)).all())
            live.add(row.id);
        }
        const alive = <T extends { accountId: string }>(rows: T[]) => rows.filter((row) => live.has(row.accountId));

        for (const part of chunks(alive(deltas.monthly))) {
          tx.insert(usage)
            .values(part)
            .onConflictDoUpdate({
              target: [usage.accountId, usage.period],
              set: { loads: sql`${usage.loads} + excluded.loads` },
            })
            .run();
        }
        for (const part of chunks(alive(deltas.loads))) {
          tx.insert(usageDaily)
            .values(part)
            .onConflictDoUpdate({
              target: [usageDaily.accountId, usageDaily.day, usageDaily.calcId, usageDaily.domain],
              set: { loads: sql`${usageDaily.loads} + excluded.loads` },
            })
            .run();
        }
        for (const part of chunks(alive(deltas.calls))) {
          tx.insert(webhookDaily)
            .values(part)
            .onConflictDoUpdate({
              target: [webhookDaily.accountId, webhookDaily.day, webhookDaily.calcId, webhookDaily.outcome],
              set: { calls: sql`${webhookDaily.calls} + excluded.calls` },
            })
            .run();
        }
      });
    },

    /** Deletes per-day rows dated before `day` ("YYYY-MM-DD"); answers how many went. */
    pruneBefore(day: string): { loads: number; calls: number } {
      return db.transaction(() => ({
        loads: pruneLoads.run({ day }).changes,
        calls: pruneCalls.run({ day }).changes,
      }));
    },
  };
}

export type UsageStore = ReturnType<typeof createUsageStore>;
