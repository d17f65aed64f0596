import { and, between, eq, sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import { insertList } from './columns.ts';
import { funnelDaily, refusedDaily, skippedDaily, usage, usageDaily, webhookDaily } from './sqlite/schema.ts';
import { writeGateOf } from './write-gate.ts';
import { FUNNEL_COUNTS, type FunnelCounts } from '../usage/funnel.ts';
import type { RefusalReason } from '../usage/refusals.ts';
import type { PullOutcome, SkipReason } from '../webhook/outcomes.ts';

type MonthlyDelta = typeof usage.$inferSelect;
type LoadsDelta = typeof usageDaily.$inferSelect;
type CallsDelta = typeof webhookDaily.$inferSelect;
type RefusedDelta = typeof refusedDaily.$inferSelect;
type SkippedDelta = typeof skippedDaily.$inferSelect;
type FunnelDelta = typeof funnelDaily.$inferSelect;

/** Everything one flush adds: monthly totals and the per-day rows behind them. */
export interface UsageDeltas {
  monthly: MonthlyDelta[];
  loads: LoadsDelta[];
  calls: CallsDelta[];
  refused: RefusedDelta[];
  skipped: SkippedDelta[];
  funnel: FunnelDelta[];
}

/** The per-day lists of a flush (every list of `UsageDeltas` but the monthly totals). */
export const DAILY_DELTAS = [
  'loads',
  'calls',
  'refused',
  'skipped',
  'funnel',
] as const satisfies readonly (keyof UsageDeltas)[];

/** Rows per-day retention deleted, by list. */
export type PrunedRows = Record<(typeof DAILY_DELTAS)[number], number>;

const isEmpty = (deltas: UsageDeltas): boolean =>
  deltas.monthly.length === 0 && DAILY_DELTAS.every((list) => deltas[list].length === 0);

export interface DailyLoads {
  date: string;
  calcId: string;
  domain: string;
  loads: number;
}

export interface DailyCalls {
  date: string;
  calcId: string;
  outcome: PullOutcome;
  calls: number;
}

export interface DailyRefused {
  date: string;
  calcId: string;
  reason: RefusalReason;
  count: number;
}

export interface DailySkipped {
  date: string;
  calcId: string;
  reason: SkipReason;
  count: number;
}

/** One day's funnel of a calculator on one page origin (its steps side by side). */
export type DailyFunnel = { date: string; calcId: string; domain: string } & FunnelCounts;

/** A calculator's funnel over a range of days. */
export type CalculatorFunnel = { calcId: string } & FunnelCounts;

/** What a funnel total may be narrowed to: one calculator, one page origin. */
export interface FunnelFilter {
  calcId?: string;
  domain?: string;
}

/**
 * The steps of `funnel_daily`'s rows side by side, as `FunnelCounts` names them (one SQL
 * text for both dialects: `sum(CASE …)` reads the same in SQLite and PostgreSQL).
 */
const FUNNEL_COLUMNS_SQL = Object.entries(FUNNEL_COUNTS)
  .map(([event, name]) => `sum(CASE WHEN event = '${event}' THEN count ELSE 0 END) AS "${name}"`)
  .join(', ');

/** One origin's stored loads on a day (what the owner's per-day caps start from). */
export interface DomainLoads {
  domain: string;
  loads: number;
}

type Columns = ReturnType<typeof insertList>;

/**
 * Persistence of load counts: monthly totals (the quota) and per-day rows (the
 * analytics). The in-memory counter in front of it batches writes.
 */
export function createUsageStore(db: Db) {
  const gate = writeGateOf(db.$client);
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
  const refusedOf = db.$client.query<DailyRefused, { accountId: string; from: string; to: string }>(
    'SELECT day AS date, calc_id AS calcId, reason, count FROM refused_daily WHERE account_id = $accountId AND day BETWEEN $from AND $to ORDER BY day, calc_id, reason',
  );
  const skippedOf = db.$client.query<DailySkipped, { accountId: string; from: string; to: string }>(
    'SELECT day AS date, calc_id AS calcId, reason, count FROM skipped_daily WHERE account_id = $accountId AND day BETWEEN $from AND $to ORDER BY day, calc_id, reason',
  );
  const funnelOf = db.$client.query<DailyFunnel, { accountId: string; from: string; to: string }>(
    `SELECT day AS date, calc_id AS calcId, domain, ${FUNNEL_COLUMNS_SQL} FROM funnel_daily WHERE account_id = $accountId AND day BETWEEN $from AND $to GROUP BY day, calc_id, domain ORDER BY day, calc_id, domain`,
  );
  // The filters are optional: NULL matches every calculator or origin.
  const funnelTotalsOf = db.$client.query<
    CalculatorFunnel,
    { accountId: string; from: string; to: string; calcId: string | null; domain: string | null }
  >(
    `SELECT calc_id AS calcId, ${FUNNEL_COLUMNS_SQL} FROM funnel_daily WHERE account_id = $accountId AND day BETWEEN $from AND $to AND ($calcId IS NULL OR calc_id = $calcId) AND ($domain IS NULL OR domain = $domain) GROUP BY calc_id ORDER BY calc_id`,
  );
  const onDay = db.$client.query<DomainLoads, { accountId: string; day: string }>(
    'SELECT domain, sum(loads) AS loads FROM usage_daily WHERE account_id = $accountId AND day = $day GROUP BY domain',
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
  const prune = {
    loads: db.$client.query<unknown, { day: string }>('DELETE FROM usage_daily WHERE day < $day'),
    calls: db.$client.query<unknown, { day: string }>('DELETE FROM webhook_daily WHERE day < $day'),
    refused: db.$client.query<unknown, { day: string }>('DELETE FROM refused_daily WHERE day < $day'),
    skipped: db.$client.query<unknown, { day: string }>('DELETE FROM skipped_daily WHERE day < $day'),
    funnel: db.$client.query<unknown, { day: string }>('DELETE FROM funnel_daily WHERE day < $day'),
  } satisfies Record<keyof PrunedRows, unknown>;

  // The flush runs on the event loop: one cached statement per row is cheaper than
  // building and preparing multi-row statements each time (10,000 rows: 25–65 ms against
  // 76–460 ms measured here), which keeps the loop free for loads.
  const isAccount = db.$client.query<{ found: number }, { id: string }>(
    'SELECT 1 AS found FROM accounts WHERE id = $id',
  );
  // Whole rows, their columns from the schema; the key and the count that adds up are the statement's own.
  const [monthly, loads, calls, refused, skipped, funnel] = [
    usage,
    usageDaily,
    webhookDaily,
    refusedDaily,
    skippedDaily,
    funnelDaily,
  ].map(insertList) as [Columns, Columns, Columns, Columns, Columns, Columns];
  const addMonthly = db.$client.query<unknown, MonthlyDelta>(
    `INSERT INTO usage (${monthly.columns}) VALUES (${monthly.values}) ON CONFLICT (account_id, period) DO UPDATE SET loads = loads + excluded.loads`,
  );
  const addLoads = db.$client.query<unknown, LoadsDelta>(
    `INSERT INTO usage_daily (${loads.columns}) VALUES (${loads.values}) ON CONFLICT (account_id, day, calc_id, domain) DO UPDATE SET loads = loads + excluded.loads`,
  );
  const addCalls = db.$client.query<unknown, CallsDelta>(
    `INSERT INTO webhook_daily (${calls.columns}) VALUES (${calls.values}) ON CONFLICT (account_id, day, calc_id, outcome) DO UPDATE SET calls = calls + excluded.calls`,
  );
  const addRefused = db.$client.query<unknown, RefusedDelta>(
    `INSERT INTO refused_daily (${refused.columns}) VALUES (${refused.values}) ON CONFLICT (account_id, day, calc_id, reason) DO UPDATE SET count = count + excluded.count`,
  );
  const addSkipped = db.$client.query<unknown, SkippedDelta>(
    `INSERT INTO skipped_daily (${skipped.columns}) VALUES (${skipped.values}) ON CONFLICT (account_id, day, calc_id, reason) DO UPDATE SET count = count + excluded.count`,
  );
  const addFunnel = db.$client.query<unknown, FunnelDelta>(
    `INSERT INTO funnel_daily (${funnel.columns}) VALUES (${funnel.values}) ON CONFLICT (account_id, day, calc_id, domain, event) DO UPDATE SET count = count + excluded.count`,
  );
  const writeAll = db.$client.transaction((deltas: UsageDeltas) => {
    const live = new Map<string, boolean>();
    const alive = (accountId: string): boolean => {
      let found = live.get(accountId);
      if (found === undefined) {
        found = isAccount.get({ id: accountId }) !== null;
        live.set(accountId, found);
      }
      return found;
    };
    for (const delta of deltas.monthly) if (alive(delta.accountId)) addMonthly.run(delta);
    for (const delta of deltas.loads) if (alive(delta.accountId)) addLoads.run(delta);
    for (const delta of deltas.calls) if (alive(delta.accountId)) addCalls.run(delta);
    for (const delta of deltas.refused) if (alive(delta.accountId)) addRefused.run(delta);
    for (const delta of deltas.skipped) if (alive(delta.accountId)) addSkipped.run(delta);
    for (const delta of deltas.funnel) if (alive(delta.accountId)) addFunnel.run(delta);
  });

  return {
    loads: async (accountId: string, period: string): Promise<number> => loadsOf.get({ accountId, period })?.loads ?? 0,

    /** Per-day rows of one account, `from`..`to` inclusive, sorted by date, calcId, domain. */
    dailyLoads: async (accountId: string, from: string, to: string): Promise<DailyLoads[]> =>
      dailyOf.all({ accountId, from, to }),

    /** Per-day webhook outcomes of one account, sorted by date, calcId, outcome. */
    dailyCalls: async (accountId: string, from: string, to: string): Promise<DailyCalls[]> =>
      callsOf.all({ accountId, from, to }),

    /** Refused widget calls of one account per day, calculator and reason, sorted by them. */
    dailyRefused: async (accountId: string, from: string, to: string): Promise<DailyRefused[]> =>
      refusedOf.all({ accountId, from, to }),

    /** Skipped webhook pulls of one account per day, calculator and reason, sorted by them. */
    dailySkipped: async (accountId: string, from: string, to: string): Promise<DailySkipped[]> =>
      skippedOf.all({ accountId, from, to }),

    /** Funnel steps of one account per day, calculator and origin, sorted by them. */
    dailyFunnel: async (accountId: string, from: string, to: string): Promise<DailyFunnel[]> =>
      funnelOf.all({ accountId, from, to }),

    /** Funnel steps of one account over `from`..`to` per calculator, sorted by calcId, narrowed by `filter`. */
    funnelTotals: async (
      accountId: string,
      from: string,
      to: string,
      filter: FunnelFilter = {},
    ): Promise<CalculatorFunnel[]> =>
      funnelTotalsOf.all({ accountId, from, to, calcId: filter.calcId ?? null, domain: filter.domain ?? null }),

    /** One account's stored loads on one day, per origin, in no particular order. */
    loadsOnDay: async (accountId: string, day: string): Promise<DomainLoads[]> => onDay.all({ accountId, day }),

    /** The stored loads of one account over `from`..`to` inclusive. */
    loadsBetween: async (accountId: string, from: string, to: string): Promise<number> =>
      sumOf.get({ accountId, from, to })?.loads ?? 0,

    /**
     * Adds every delta in one transaction, so the monthly total and the days behind it
     * never disagree. Counts of accounts deleted since they were made are dropped: the
     * rows would break the foreign key and hold back everyone else's counts.
     */
    async addAll(deltas: UsageDeltas): Promise<void> {
      if (isEmpty(deltas)) return;
      await gate.write(() => writeAll(deltas));
    },

    /** Deletes per-day rows dated before `day` ("YYYY-MM-DD"); answers how many went. */
    pruneBefore: (day: string): Promise<PrunedRows> =>
      gate.write(() =>
        db.transaction(() => ({
          loads: prune.loads.run({ day }).changes,
          calls: prune.calls.run({ day }).changes,
          refused: prune.refused.run({ day }).changes,
          skipped: prune.skipped.run({ day }).changes,
          funnel: prune.funnel.run({ day }).changes,
        })),
      ),
  };
}

export type UsageStore = ReturnType<typeof createUsageStore>;
