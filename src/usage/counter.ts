import type { DailyCalls, DailyLoads, UsageDeltas, UsageStore } from '../db/usage-store.ts';
import type { PullOutcome } from '../webhook/outcomes.ts';

/** "YYYY-MM" of a moment, in UTC: quotas run per calendar month. */
export function periodOf(date: Date): string {
  // Every widget load asks: two getters are cheaper than formatting the whole ISO string.
  const month = date.getUTCMonth() + 1;
  return `${date.getUTCFullYear()}-${month < 10 ? '0' : ''}${month}`;
}

/** Milliseconds in a UTC day. */
export const DAY_MS = 86_400_000;
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

/**
 * Counts by three keys, one map per level: every key of a load (the cached day string, a
 * calculator id, a cached origin) is a string whose hash is already known, so a count is
 * three lookups and no string building (docs/performance.md).
 */
type Tally = Map<string, Map<string, Map<string, number>>>;

/** What `tally` did: counted on a known key, made a new key, or counted nothing. */
const COUNTED = 0;
const NEW_KEY = 1;
const NO_ROOM = 2;

/**
 * Adds one to key (a, b, c); a new key only when `roomForNew` (the cap on pending keys is
 * not reached), else nothing is counted.
 */
function tally(counts: Tally, a: string, b: string, c: string, roomForNew: boolean): number {
  let level = counts.get(a);
  let last = level?.get(b);
  const known = last?.get(c);
  if (known !== undefined && last) {
    last.set(c, known + 1);
    return COUNTED;
  }
  if (!roomForNew) return NO_ROOM;
  if (!level) {
    level = new Map();
    counts.set(a, level);
  }
  if (!last) {
    last = new Map();
    level.set(b, last);
  }
  last.set(c, 1);
  return NEW_KEY;
}

/** Keys (a, b, c) in `counts`. */
function keysOf(counts: Tally): number {
  let n = 0;
  for (const level of counts.values()) for (const last of level.values()) n += last.size;
  return n;
}

/** Adds every count of `from` into `into` (a failed flush gives its counts back). */
function addInto(into: Tally, from: Tally): void {
  for (const [a, b, c, n] of entriesOf(from)) {
    let level = into.get(a);
    if (!level) {
      level = new Map();
      into.set(a, level);
    }
    let last = level.get(b);
    if (!last) {
      last = new Map();
      level.set(b, last);
    }
    last.set(c, (last.get(c) ?? 0) + n);
  }
}

function* entriesOf(counts: Tally): Generator<[string, string, string, number]> {
  for (const [a, level] of counts) for (const [b, last] of level) for (const [c, n] of last) yield [a, b, c, n];
}

interface Entry {
  stored: number;
  pending: number;
  /** Unflushed loads of this month by day, calculator and origin; they add up to `pending`. */
  days: Tally;
}

const SEP = '\u0000';

/**
 * At most this many per-day keys (day × calculator × origin for loads, day × calculator ×
 * outcome for webhook calls) wait unwritten on one server. While the database is down they
 * grow with every new day, calculator and origin; past the cap a load still counts towards
 * its month (quotas and the monthly total stay exact) but not towards a new per-day row,
 * and `onDropped` reports how many (docs/operations.md, "Database outages").
 */
export const MAX_PENDING_DAY_KEYS = 50_000;

/** Counts the per-day analytics could not keep because the cap on pending keys was reached. */
interface DroppedDetail {
  loads: number;
  calls: number;
  cap: number;
}

export interface UsageCounterOptions {
  /** Called once per flush attempt when counts lost their per-day detail since the last. */
  onDropped?: (dropped: DroppedDetail) => void;
  maxPendingDayKeys?: number;
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

/** A call tally's last key: written only by `countCall`, so always one of the pull's outcomes. */
const outcomeOf = (key: string): PullOutcome => key as PullOutcome;

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
export function createUsageCounter(
  store: Pick<UsageStore, 'loads' | 'addAll'>,
  onLimitReached: () => void | Promise<void> = () => {},
  options: UsageCounterOptions = {},
) {
  const cap = options.maxPendingDayKeys ?? MAX_PENDING_DAY_KEYS;
  /** Pending per-day keys, loads' and calls' together: what the cap bounds. */
  let dayKeys = 0;
  const dropped = { loads: 0, calls: 0 };
  const entries = new Map<string, Entry>();
  /** Unflushed webhook calls by account, then day, calculator and outcome. */
  let calls = new Map<string, Tally>();
  // One read of a stored total per key, however many loads ask for it at once.
  const reading = new Map<string, Promise<Entry>>();
  let flushing: Promise<void> | null = null;
  const touched = new Set<string>();

  function entry(accountId: string, period: string): Entry | Promise<Entry> {
    const key = accountId + SEP + period;
    touched.add(key);
    const found = entries.get(key);
    if (found) return found;
    let read = reading.get(key);
    if (!read) {
      read = store.loads(accountId, period).then(
        (stored) => {
          reading.delete(key);
          const created: Entry = { stored, pending: 0, days: new Map() };
          entries.set(key, created);
          return created;
        },
        (error: unknown) => {
          reading.delete(key);
          throw error;
        },
      );
      reading.set(key, read);
    }
    return read;
  }

  /** Writes a snapshot; what is counted while the write runs stays pending for the next. */
  async function writePending(): Promise<void> {
    if (dropped.loads + dropped.calls > 0) {
      options.onDropped?.({ ...dropped, cap });
      dropped.loads = 0;
      dropped.calls = 0;
    }
    await writeDeltas();
    await refreshTouched();
  }

  /**
   * Re-reads the stored totals asked about since the last flush: other servers on a
   * shared database add to them too, so a quota is checked against every server's written
   * counts, at most one flush interval old. Inside the flush chain, so no flush moves
   * counts meanwhile; loads counted during the read stay in `pending`.
   */
  async function refreshTouched(): Promise<void> {
    const keys = [...touched];
    touched.clear();
    for (const key of keys) {
      const e = entries.get(key);
      if (!e) continue;
      const [accountId = '', period = ''] = key.split(SEP);
      e.stored = await store.loads(accountId, period);
    }
  }

  async function writeDeltas(): Promise<void> {
    const deltas = pendingDeltas();
    if (deltas.monthly.length + deltas.calls.length === 0) return;
    const taken: { key: string; entry: Entry; loads: number; days: Tally }[] = [];
    for (const [key, e] of entries) {
      if (e.pending === 0) continue;
      taken.push({ key, entry: e, loads: e.pending, days: e.days });
      e.stored += e.pending;
      e.pending = 0;
      e.days = new Map();
    }
    const takenCalls = calls;
    calls = new Map();
    dayKeys = 0;
    try {
      await store.addAll(deltas);
    } catch (error) {
      // Nothing was written (one transaction): every count waits for the next flush.
      for (const t of taken) {
        t.entry.stored -= t.loads;
        t.entry.pending += t.loads;
        addInto(t.entry.days, t.days);
        if (!entries.has(t.key)) entries.set(t.key, t.entry);
      }
      for (const [accountId, mine] of takenCalls) {
        let now = calls.get(accountId);
        if (!now) {
          now = new Map();
          calls.set(accountId, now);
        }
        addInto(now, mine);
      }
      // Merged back: keys counted during the write and taken ones may coincide.
      dayKeys = 0;
      for (const e of entries.values()) dayKeys += keysOf(e.days);
      for (const mine of calls.values()) dayKeys += keysOf(mine);
      throw error;
    }
  }

  /** Counts a per-day key, within the cap on pending keys (see MAX_PENDING_DAY_KEYS). */
  function countDay(counts: Tally, day: string, calcId: string, last: string, kind: 'loads' | 'calls'): void {
    const done = tally(counts, day, calcId, last, dayKeys < cap);
    if (done === NEW_KEY) dayKeys += 1;
    else if (done === NO_ROOM) dropped[kind] += 1;
  }

  function pendingDeltas(): UsageDeltas {
    const deltas: UsageDeltas = { monthly: [], loads: [], calls: [] };
    for (const [key, e] of entries) {
      if (e.pending === 0) continue;
      const [accountId = '', period = ''] = key.split(SEP);
      deltas.monthly.push({ accountId, period, loads: e.pending });
      for (const [day, calcId, domain, loads] of entriesOf(e.days))
        deltas.loads.push({ accountId, day, calcId, domain, loads });
    }
    for (const [accountId, mine] of calls) {
      for (const [day, calcId, outcome, count] of entriesOf(mine))
        deltas.calls.push({ accountId, day, calcId, outcome: outcomeOf(outcome), calls: count });
    }
    return deltas;
  }

  return {
    /** Loads of the month, counted or not yet written; without a promise once the month is known. */
    used(accountId: string, period: string): number | Promise<number> {
      const e = entry(accountId, period);
      return e instanceof Promise ? e.then((known) => known.stored + known.pending) : e.stored + e.pending;
    },

    /**
     * Counts one load on `day` ("YYYY-MM-DD") unless the month's limit is reached; check
     * and count are one synchronous step once the month's stored total is known, and then
     * the answer comes without a promise (every widget load passes here).
     */
    tryCount(
      accountId: string,
      day: string,
      limit: number,
      calcId: string,
      domain: string,
    ): boolean | Promise<boolean> {
      const count = (e: Entry): boolean | Promise<boolean> => {
        if (e.stored + e.pending >= limit) return false;
        e.pending += 1;
        countDay(e.days, day, calcId, domain, 'loads');
        if (e.stored + e.pending !== limit) return true;
        // The load that reaches the limit is answered only once the count is on disk.
        return Promise.resolve(onLimitReached()).then(() => true);
      };
      const e = entry(accountId, day.slice(0, 7));
      return e instanceof Promise ? e.then(count) : count(e);
    },

    /** Counts one webhook call made for a load, by its outcome. */
    countCall(accountId: string, day: string, calcId: string, outcome: PullOutcome): void {
      let mine = calls.get(accountId);
      if (!mine) {
        mine = new Map();
        calls.set(accountId, mine);
      }
      countDay(mine, day, calcId, outcome, 'calls');
    },

    /** One account's unflushed loads on days `from`..`to`, in no particular order. */
    pendingLoads(accountId: string, from: string, to: string): DailyLoads[] {
      const rows: DailyLoads[] = [];
      for (const period of periodsBetween(from, to)) {
        const e = entries.get(accountId + SEP + period);
        if (!e) continue;
        for (const [date, calcId, domain, loads] of entriesOf(e.days))
          if (date >= from && date <= to) rows.push({ date, calcId, domain, loads });
      }
      return rows;
    },

    /** One account's unflushed webhook calls on days `from`..`to`, in no particular order. */
    pendingCalls(accountId: string, from: string, to: string): DailyCalls[] {
      const rows: DailyCalls[] = [];
      for (const [date, calcId, outcome, count] of entriesOf(calls.get(accountId) ?? new Map()))
        if (date >= from && date <= to) rows.push({ date, calcId, outcome: outcomeOf(outcome), calls: count });
      return rows;
    },

    /** Everything counted and not yet written, as one flush would write it. */
    deltas: pendingDeltas,

    /**
     * Writes every pending count in one transaction; on failure they stay pending. A
     * flush asked for while another runs follows it.
     */
    flush(): Promise<void> {
      const next: Promise<void> = (flushing ?? Promise.resolve())
        .catch(() => {})
        .then(writePending)
        .finally(() => {
          if (flushing === next) flushing = null;
        });
      flushing = next;
      return next;
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
