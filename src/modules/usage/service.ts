import type { Static } from 'elysia';
import type { Plan } from '../../plans.ts';
import type { AccountRow } from '../../db/accounts-store.ts';
import type { CalculatorFunnel, UsageStore } from '../../db/usage-store.ts';
import { normaliseOrigin } from '../../domains/origin.ts';
import { invalidRequest } from '../../errors.ts';
import { checkOrder, dayNumber, realDay, startOfDay } from '../../http/days.ts';
import { dayOf, periodOf, type UsageCounter } from '../../usage/counter.ts';
import { FUNNEL_COUNTS, type FunnelCounts, funnelRates, noFunnel } from '../../usage/funnel.ts';
import type { FunnelQuery, FunnelReport, QuotaPeriod, QuotaStatus, UsageQuery, UsageReport } from './model.ts';

export interface UsageDeps {
  usage: UsageCounter;
  usageStore: Pick<
    UsageStore,
    'dailyLoads' | 'dailyCalls' | 'dailyRefused' | 'dailySkipped' | 'dailyFunnel' | 'funnelTotals' | 'loadsBetween'
  >;
  quotas: Readonly<Record<Plan, number>>;
  now: () => Date;
}

type Report = Static<typeof UsageReport>;
type LoadRow = Report['rows'][number];
type CallRow = Report['webhook'][number];
type ReasonRow = Report['refused'][number] | Report['skipped'][number];
type FunnelRow = Report['funnel'][number];

/** Adds one funnel's counts into another's. */
function addFunnel(into: FunnelCounts, extra: FunnelCounts): void {
  for (const count of Object.values(FUNNEL_COUNTS)) into[count] += extra[count];
}

const reasonKey = (row: ReasonRow) => `${row.date}\u0000${row.calcId}\u0000${row.reason}`;
const addCount = (into: ReasonRow, extra: ReasonRow) => {
  into.count += extra.count;
};

/** The default range: the 30 days ending today. */
const DEFAULT_DAYS = 30;
/** The longest range one request may ask for, in days between `from` and `to`. */
const MAX_SPAN_DAYS = 366;

const dayFromNumber = (n: number): string => startOfDay(n).slice(0, 10);

/**
 * The range a request asks for: `to` defaults to today (UTC) and `from` to 29 days
 * before `to`; both must be real dates, `from` not after `to`, at most 366 days apart.
 */
function usageRange(query: Static<typeof UsageQuery>, today: string): { from: string; to: string } {
  const to = query.to ?? today;
  const toN = realDay('to', to);
  const from = query.from ?? dayFromNumber(toN - (DEFAULT_DAYS - 1));
  const fromN = realDay('from', from);
  checkOrder({ day: from, n: fromN }, { day: to, n: toN });
  if (toN - fromN > MAX_SPAN_DAYS)
    throw invalidRequest(`from and to may be at most ${MAX_SPAN_DAYS} days apart; ${from} to ${to} is ${toN - fromN}.`);
  return { from, to };
}

/** This month's quota for an account, counting loads not yet written to disk. */
async function quotaPeriod(deps: UsageDeps, account: AccountRow): Promise<Static<typeof QuotaPeriod>> {
  const period = periodOf(deps.now());
  return { period, used: await deps.usage.used(account.id, period), limit: deps.quotas[account.plan] };
}

/**
 * Adds unflushed rows into sorted stored rows, keeping the order. `keyOf` joins a row's
 * sort fields with U+0000, which sorts before every other character, so comparing keys
 * compares the fields in turn (as the store's ORDER BY does). Unflushed rows are few (at
 * most a flush interval's worth, mostly today's), so each new one is placed by binary
 * search instead of sorting everything again.
 */
function mergeSorted<T>(stored: T[], pending: T[], keyOf: (row: T) => string, add: (into: T, from: T) => void): T[] {
  if (pending.length === 0) return stored;
  const waiting = new Map(pending.map((row) => [keyOf(row), row]));
  for (const row of stored) {
    const key = keyOf(row);
    const extra = waiting.get(key);
    if (extra === undefined) continue;
    add(row, extra);
    waiting.delete(key);
  }
  for (const [key, row] of waiting) {
    let low = 0;
    let high = stored.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (keyOf(stored[mid] as T) < key) low = mid + 1;
      else high = mid;
    }
    stored.splice(low, 0, row);
  }
  return stored;
}

/** `GET /v1/usage`: the caller's own rows over a range, stored and not yet stored. */
export async function usageReport(
  deps: UsageDeps,
  account: AccountRow,
  query: Static<typeof UsageQuery>,
): Promise<Report> {
  const { from, to } = usageRange(query, dayOf(deps.now()));
  const [storedLoads, storedCalls, storedRefused, storedSkipped, storedFunnel] = await Promise.all([
    deps.usageStore.dailyLoads(account.id, from, to),
    deps.usageStore.dailyCalls(account.id, from, to),
    deps.usageStore.dailyRefused(account.id, from, to),
    deps.usageStore.dailySkipped(account.id, from, to),
    deps.usageStore.dailyFunnel(account.id, from, to),
  ]);
  const rows = mergeSorted<LoadRow>(
    storedLoads,
    deps.usage.pendingLoads(account.id, from, to),
    (row) => `${row.date}\u0000${row.calcId}\u0000${row.domain}`,
    (into, extra) => {
      into.loads += extra.loads;
    },
  );
  const webhook = mergeSorted<CallRow>(
    storedCalls,
    deps.usage.pendingCalls(account.id, from, to),
    (row) => `${row.date}\u0000${row.calcId}\u0000${row.outcome}`,
    (into, extra) => {
      into.calls += extra.calls;
    },
  );
  const refused = mergeSorted(storedRefused, deps.usage.pendingRefused(account.id, from, to), reasonKey, addCount);
  const skipped = mergeSorted(storedSkipped, deps.usage.pendingSkipped(account.id, from, to), reasonKey, addCount);
  const funnel = mergeSorted<FunnelRow>(
    storedFunnel,
    deps.usage.pendingFunnel(account.id, from, to),
    (row) => `${row.date}\u0000${row.calcId}\u0000${row.domain}`,
    addFunnel,
  );
  let total = 0;
  for (const row of rows) total += row.loads;
  return { from, to, period: await quotaPeriod(deps, account), total, rows, webhook, refused, skipped, funnel };
}

/** The page origin a funnel is narrowed to: one origin, as usage rows spell it. */
function funnelDomain(domain: string): string {
  const { origin, wildcard } = normaliseOrigin(domain);
  if (wildcard) throw invalidRequest('domain must be one origin, such as https://shop.example, not a wildcard.');
  return origin;
}

/**
 * `GET /v1/usage/funnel`: the steps over a range of days, stored and not yet stored, in
 * all and per calculator, with the rates between steps (docs/api.md, "Funnel").
 */
export async function funnelReport(
  deps: UsageDeps,
  account: AccountRow,
  query: Static<typeof FunnelQuery>,
): Promise<Static<typeof FunnelReport>> {
  const { from, to } = usageRange(query, dayOf(deps.now()));
  const domain = query.domain === undefined ? undefined : funnelDomain(query.domain);
  const calcId = query.calcId;
  const stored = await deps.usageStore.funnelTotals(account.id, from, to, { calcId, domain });
  const perCalculator = new Map<string, CalculatorFunnel>(stored.map((row) => [row.calcId, row]));
  for (const row of deps.usage.pendingFunnel(account.id, from, to)) {
    if ((calcId !== undefined && row.calcId !== calcId) || (domain !== undefined && row.domain !== domain)) continue;
    let into = perCalculator.get(row.calcId);
    if (!into) {
      into = { calcId: row.calcId, ...noFunnel() };
      perCalculator.set(row.calcId, into);
    }
    addFunnel(into, row);
  }
  const total = noFunnel();
  const calculators = [...perCalculator.values()]
    .sort((a, b) => (a.calcId < b.calcId ? -1 : a.calcId > b.calcId ? 1 : 0))
    .map((row) => {
      addFunnel(total, row);
      const counts: FunnelCounts = {
        views: row.views,
        starts: row.starts,
        completes: row.completes,
        submits: row.submits,
      };
      return { calcId: row.calcId, ...counts, rates: funnelRates(counts) };
    });
  return {
    from,
    to,
    calcId: calcId ?? null,
    domain: domain ?? null,
    total: { ...total, rates: funnelRates(total) },
    calculators,
  };
}

/** The rate behind the forecast: loads per day over the last full days, at most this many. */
const RATE_DAYS = 7;

/**
 * This month's quota with what owners act on: the share used (floored to 0.1 %, so 100
 * means the quota is spent) and the day the quota runs out at the rate of the last 7 full
 * UTC days, when that day comes before the month ends (else null). An account younger
 * than 7 days is measured over the full days it has.
 */
export async function quotaStatus(deps: UsageDeps, account: AccountRow): Promise<Static<typeof QuotaStatus>> {
  const quota = await quotaPeriod(deps, account);
  const percent = quota.limit <= 0 ? 100 : Math.min(100, Math.floor((quota.used * 1000) / quota.limit) / 10);
  return { ...quota, percent, runsOutOn: await runsOutOn(deps, account, quota) };
}

async function runsOutOn(
  deps: UsageDeps,
  account: AccountRow,
  quota: Static<typeof QuotaPeriod>,
): Promise<string | null> {
  const remaining = quota.limit - quota.used;
  if (remaining <= 0) return null;
  const today = dayNumber(dayOf(deps.now())) ?? 0;
  const created = dayNumber(account.createdAt.slice(0, 10)) ?? today;
  const days = Math.min(RATE_DAYS, today - created);
  if (days <= 0) return null;
  const from = dayFromNumber(today - days);
  const to = dayFromNumber(today - 1);
  let loads = await deps.usageStore.loadsBetween(account.id, from, to);
  for (const row of deps.usage.pendingLoads(account.id, from, to)) loads += row.loads;
  if (loads === 0) return null;
  const day = dayFromNumber(today + Math.floor(remaining / (loads / days)));
  return day.slice(0, 7) === quota.period ? day : null;
}
