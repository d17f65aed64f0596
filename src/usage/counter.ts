import type { DailyCalls, DailyLoads, UsageDeltas, UsageStore } from '../db/usage-store.ts';

/** "YYYY-MM" of a moment, in UTC: quotas run per calendar month. */
export function periodOf(date: Date): string {
  // Every widget load asks: two getters are cheaper than formatting the whole ISO string.
  const month = date.getUTCMonth() + 1;
  return `${date.getUTCFullYear()}-${month < 10 ? '0' : ''}${month}`;
}

const DAY_MS = 86_400_000;
let today = { start: 0, end: 0, day: '' };

/**
 * "YYYY-MM-DD" of a moment, in UTC: usage is recorded per UTC day. Every widget load
 * asks, so the answer is kept until the moment leaves that day.
 */
export function dayOf(date: Date): string {
  const ms = date.getTime();
  if (ms >= today.start && ms < today.end) return today.day;
  const start = ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);
  today = { start, end: start + DAY_MS, day: new Date(start).toISOString().slice(0, 10) };
  return today.day;
}

interface Entry {
  stored: number;
  pending: number;
  /** Unflushed loads of this month by `day\0calcId\0domain`; they add up to `pending`. */
  days: Map<string, number>;
}

const SEP = '\u0000';

function bump(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

/** The months ("YYYY-MM") that days `from`..`to` touch. */
function periodsBetween(from: string, to: string): string[] {
  const periods: string[] = [];
  let year = Number(from.slice(0, 4));
  let month = Number(from.slice(5, 7));
  for (;;) {
    const period = `${year}-${month < 10 ? '0' : ''}${month}`;
    if (period > to.slice(0, 7)) return periods;
    periods.push(period);
    month += 1;
    if (month === 13) {
      month = 1;
      year += 1;
    }
  }
}

/**
 * Counts widget loads in memory and writes them in batches: a database write per load
 * would be the hot path's slowest step. Each load counts towards the month (the quota)
 * and towards its day, calculator and page origin (the analytics); each webhook call
 * towards its day, calculator and outcome. `used()` and the pending rows always include
 * what is not yet on disk, and `flush()` writes it all in one transaction, on a timer and
 * on shutdown, so a clean stop loses nothing.
 *
 * A `kill -9` loses what is not yet written, which gives that much quota back. The load
 * that reaches an account's limit calls `onLimitReached` (the server flushes at once), so
 * an account at its limit is on disk before that load is answered and a crash cannot
 * serve it again.
 */
export function createUsageCounter(store: Pick<UsageStore, 'loads' | 'addAll'>, onLimitReached: () => void = () => {}) {
  const entries = new Map<string, Entry>();
  /** Unflushed webhook calls by account, then `day\0calcId\0outcome`. */
  const calls = new Map<string, Map<string, number>>();

  function entry(accountId: string, period: string): Entry {
    const key = accountId + SEP + period;
    let found = entries.get(key);
    if (!found) {
      found = { stored: store.loads(accountId, period), pending: 0, days: new Map() };
      entries.set(key, found);
    }
    return found;
  }

  function pendingDeltas(): UsageDeltas {
    const deltas: UsageDeltas = { monthly: [], loads: [], calls: [] };
    for (const [key, e] of entries) {
      if (e.pending === 0) continue;
      const [accountId = '', period = ''] = key.split(SEP);
      deltas.monthly.push({ accountId, period, loads: e.pending });
      for (const [dayKey, loads] of e.days) {
        const [day = '', calcId = '', domain = ''] = dayKey.split(SEP);
        deltas.loads.push({ accountId, day, calcId, domain, loads });
      }
    }
    for (const [accountId, mine] of calls) {
      for (const [key, count] of mine) {
        const [day = '', calcId = '', outcome = ''] = key.split(SEP);
        deltas.calls.push({ accountId, day, calcId, outcome, calls: count });
      }
    }
    return deltas;
  }

  return {
    used(accountId: string, period: string): number {
      const e = entry(accountId, period);
      return e.stored + e.pending;
    },

    /**
     * Counts one load on `day` ("YYYY-MM-DD") unless the month's limit is reached; check
     * and count are one synchronous step.
     */
    tryCount(accountId: string, day: string, limit: number, calcId: string, domain: string): boolean {
      const e = entry(accountId, day.slice(0, 7));
      if (e.stored + e.pending >= limit) return false;
      e.pending += 1;
      bump(e.days, day + SEP + calcId + SEP + domain);
      if (e.stored + e.pending === limit) onLimitReached();
      return true;
    },

    /** Counts one webhook call made for a load, by its outcome. */
    countCall(accountId: string, day: string, calcId: string, outcome: string): void {
      let mine = calls.get(accountId);
      if (!mine) {
        mine = new Map();
        calls.set(accountId, mine);
      }
      bump(mine, day + SEP + calcId + SEP + outcome);
    },

    /** One account's unflushed loads on days `from`..`to`, in no particular order. */
    pendingLoads(accountId: string, from: string, to: string): DailyLoads[] {
      const rows: DailyLoads[] = [];
      for (const period of periodsBetween(from, to)) {
        const e = entries.get(accountId + SEP + period);
        if (!e) continue;
        for (const [key, loads] of e.days) {
          const [date = '', calcId = '', domain = ''] = key.split(SEP);
          if (date >= from && date <= to) rows.push({ date, calcId, domain, loads });
        }
      }
      return rows;
    },

    /** One account's unflushed webhook calls on days `from`..`to`, in no particular order. */
    pendingCalls(accountId: string, from: string, to: string): DailyCalls[] {
      const rows: DailyCalls[] = [];
      for (const [key, count] of calls.get(accountId) ?? []) {
        const [date = '', calcId = '', outcome = ''] = key.split(SEP);
        if (date >= from && date <= to) rows.push({ date, calcId, outcome, calls: count });
      }
      return rows;
    },

    /** Everything counted and not yet written, as one flush would write it. */
    deltas: pendingDeltas,

    /** Writes every pending count in one transaction; on failure they stay pending. */
    flush(): void {
      const deltas = pendingDeltas();
      if (deltas.monthly.length + deltas.calls.length === 0) return;
      store.addAll(deltas);
      // Synchronous from the snapshot to here: no load was counted in between.
      for (const e of entries.values()) {
        e.stored += e.pending;
        e.pending = 0;
        e.days.clear();
      }
      calls.clear();
    },

    /** Forgets flushed totals of months other than `current`: they are never asked for again. */
    prune(current: string): void {
      for (const [key, e] of entries) {
        if (e.pending === 0 && !key.endsWith(SEP + current)) entries.delete(key);
      }
    },
  };
}

export type UsageCounter = ReturnType<typeof createUsageCounter>;
