import type { AccountRow } from '../db/accounts-store.ts';
import type { DomainLoads } from '../db/usage-store.ts';

/** The owner's daily load caps, as the account row holds them (null: no cap). */
export type LoadCaps = Pick<AccountRow, 'loadsPerDay' | 'loadsPerDayPerDomain'>;

/** Loads on disk (as last read) and counted here since. */
interface Count {
  stored: number;
  pending: number;
}

/** One account's loads on one UTC day, in all and per page origin. */
export interface DayTotal {
  day: string;
  all: Count;
  domains: Map<string, Count>;
  /** The caps the last load counted here was held to: a jump read after a flush is judged against them. */
  caps?: LoadCaps;
}

/** A daily cap reached: by the day's loads in all, or by those from one origin. */
export interface CapReached {
  accountId: string;
  day: string;
  cap: keyof LoadCaps;
  used: number;
  limit: number;
  domain?: string;
}

const sum = (count: Count): number => count.stored + count.pending;

/**
 * The page origins one account's day follows. Under a wildcard a caller may name any
 * number of subdomains; past this many in a day, a load from yet another origin is refused
 * while a per-origin cap is set (docs/api.md, "Owner limits").
 */
export const MAX_DAY_DOMAINS = 10_000;

const within = (count: Count, cap: number | null): boolean => cap === null || count.stored + count.pending < cap;

/** Which of the owner's caps of the day one more load from `domain` would pass, if any. */
export function capReached(total: DayTotal, domain: string, caps: LoadCaps): 'day_cap' | 'domain_cap' | null {
  if (!within(total.all, caps.loadsPerDay)) return 'day_cap';
  if (caps.loadsPerDayPerDomain === null) return null;
  const count = total.domains.get(domain);
  return (count ? within(count, caps.loadsPerDayPerDomain) : total.domains.size < MAX_DAY_DOMAINS)
    ? null
    : 'domain_cap';
}

/**
 * Counts one load from `domain` on the day unless it would pass a cap; answers the cap it
 * would pass, or null when counted. One lookup of the origin: every capped load passes here.
 */
export function takeDayLoad(total: DayTotal, domain: string, caps: LoadCaps): 'day_cap' | 'domain_cap' | null {
  if (!within(total.all, caps.loadsPerDay)) return 'day_cap';
  let count = total.domains.get(domain);
  if (count === undefined) {
    if (total.domains.size >= MAX_DAY_DOMAINS) {
      if (caps.loadsPerDayPerDomain !== null) return 'domain_cap';
    } else {
      count = { stored: 0, pending: 0 };
      total.domains.set(domain, count);
    }
  } else if (!within(count, caps.loadsPerDayPerDomain)) return 'domain_cap';
  total.all.pending += 1;
  if (count !== undefined) count.pending += 1;
  total.caps = caps;
  return null;
}

/**
 * Tells `reached` of each cap the load just counted from `domain` (by `takeDayLoad`) made
 * full: loads come one at a time, so the count equals the cap once.
 */
export function loadReachedCaps(
  accountId: string,
  total: DayTotal,
  domain: string,
  reached: (cap: CapReached) => void,
): void {
  const caps = total.caps;
  if (!caps) return;
  const all = sum(total.all);
  if (all === caps.loadsPerDay) reached({ accountId, day: total.day, cap: 'loadsPerDay', used: all, limit: all });
  const count = caps.loadsPerDayPerDomain === null ? undefined : total.domains.get(domain);
  const perDomain = caps.loadsPerDayPerDomain;
  if (count && sum(count) === perDomain)
    reached({ accountId, day: total.day, cap: 'loadsPerDayPerDomain', used: perDomain, limit: perDomain, domain });
}

/** The caps a jump read after a flush reached: from the counts `before` it to those now. */
function jumpReachedCaps(
  accountId: string,
  total: DayTotal,
  before: { all: number; domains: Map<string, number> },
  reached: (cap: CapReached) => void,
): void {
  const caps = total.caps;
  if (!caps) return;
  const all = sum(total.all);
  if (caps.loadsPerDay !== null && before.all < caps.loadsPerDay && all >= caps.loadsPerDay)
    reached({ accountId, day: total.day, cap: 'loadsPerDay', used: all, limit: caps.loadsPerDay });
  const perDomain = caps.loadsPerDayPerDomain;
  if (perDomain === null) return;
  for (const [domain, count] of total.domains) {
    if ((before.domains.get(domain) ?? 0) < perDomain && sum(count) >= perDomain) {
      reached({
        accountId,
        day: total.day,
        cap: 'loadsPerDayPerDomain',
        used: sum(count),
        limit: perDomain,
        domain,
      });
      return;
    }
  }
}

/**
 * Today's loads of the accounts that have a daily cap, so a cap is checked without a
 * query: read once per account and day (the stored rows, plus what this server counted
 * and has not written yet), then counted in memory, and read again after each flush, so
 * other servers' written loads count too, at most one flush interval late — as the
 * monthly quota is. Accounts without a daily cap are never looked at.
 */
export function createDayTotals(
  read: (accountId: string, day: string) => Promise<DomainLoads[]>,
  reached: (cap: CapReached) => void = () => {},
) {
  /** By account: one day each (a new day replaces the last, so they are bounded by accounts). */
  const totals = new Map<string, DayTotal>();
  /** By account and day, while the day is read. */
  const reading = new Map<string, Promise<DayTotal>>();
  /** Accounts whose totals were used since the last flush. */
  const touched = new Set<string>();

  function setStored(total: DayTotal, rows: DomainLoads[]): void {
    for (const count of total.domains.values()) count.stored = 0;
    total.all.stored = 0;
    for (const { domain, loads } of rows) {
      total.all.stored += loads;
      let count = total.domains.get(domain);
      if (!count) {
        if (total.domains.size >= MAX_DAY_DOMAINS) continue;
        count = { stored: 0, pending: 0 };
        total.domains.set(domain, count);
      }
      count.stored = loads;
    }
  }

  return {
    /** One account's totals on `day` when they are in memory (every capped load asks first). */
    known(accountId: string, day: string): DayTotal | undefined {
      touched.add(accountId);
      const known = totals.get(accountId);
      return known?.day === day ? known : undefined;
    },

    /**
     * Reads one account's totals on `day` (once, however many loads wait for them).
     * `unwritten` gives this server's loads of that day not yet on disk, per origin.
     */
    read(accountId: string, day: string, unwritten: () => Iterable<[string, number]>): Promise<DayTotal> {
      touched.add(accountId);
      const key = `${accountId} ${day}`;
      let pending = reading.get(key);
      if (!pending) {
        pending = read(accountId, day).then(
          (rows) => {
            reading.delete(key);
            const current = totals.get(accountId);
            if (current?.day === day) return current;
            const total: DayTotal = { day, all: { stored: 0, pending: 0 }, domains: new Map() };
            setStored(total, rows);
            for (const [domain, loads] of unwritten()) {
              total.all.pending += loads;
              let count = total.domains.get(domain);
              if (!count && total.domains.size < MAX_DAY_DOMAINS) {
                count = { stored: 0, pending: 0 };
                total.domains.set(domain, count);
              }
              if (count) count.pending += loads;
            }
            totals.set(accountId, total);
            return total;
          },
          (error: unknown) => {
            reading.delete(key);
            throw error;
          },
        );
        reading.set(key, pending);
      }
      return pending;
    },

    /**
     * Marks every pending count as written, for a flush that is about to write them;
     * answers the undo for a flush that fails.
     */
    markWritten(): () => void {
      const taken: [Count, number][] = [];
      for (const total of totals.values()) {
        for (const count of [total.all, ...total.domains.values()]) {
          if (count.pending === 0) continue;
          taken.push([count, count.pending]);
          count.stored += count.pending;
          count.pending = 0;
        }
      }
      return () => {
        for (const [count, n] of taken) {
          count.stored -= n;
          count.pending += n;
        }
      };
    },

    /** Reads again what is stored for the accounts used since the last refresh (after a flush). */
    async refresh(): Promise<void> {
      const accounts = [...touched];
      touched.clear();
      for (const accountId of accounts) {
        const total = totals.get(accountId);
        if (!total) continue;
        const rows = await read(accountId, total.day);
        // Loads counted during the read were judged on their own: only the jump is judged here.
        const before = { all: sum(total.all), domains: new Map<string, number>() };
        if (total.caps?.loadsPerDayPerDomain != null)
          for (const [domain, count] of total.domains) before.domains.set(domain, sum(count));
        setStored(total, rows);
        jumpReachedCaps(accountId, total, before, reached);
      }
    },
  };
}
