import type {
  DailyCalls,
  DailyFunnel,
  DailyLoads,
  DailyRefused,
  DailySkipped,
  UsageDeltas,
  UsageStore,
} from '../db/usage-store.ts';
import type { PullOutcome, SkipReason } from '../webhook/outcomes.ts';
import {
  type CapReached,
  capReached,
  createDayTotals,
  type DayTotal,
  type LoadCaps,
  loadReachedCaps,
  takeDayLoad,
} from './day-totals.ts';
import { FUNNEL_COUNTS, type FunnelEvent, noFunnel } from './funnel.ts';
import type { RefusalReason } from './refusals.ts';
import { addInto, entriesOf, keysOf, NEW_KEY, NO_ROOM, type Tally, tally } from './tally.ts';

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

const SEP = '\u0000';

interface Entry {
  accountId: string;
  period: string;
  /** The limit the last load counted here was held to (0 before one): a jump read after a flush is judged against it. */
  limit: number;
  stored: number;
  pending: number;
  /** Unflushed loads of this month by day, calculator and origin; they add up to `pending`. */
  days: Tally;
}

/**
 * At most this many per-day keys (day × calculator × origin for loads, day × calculator ×
 * outcome or reason for webhook calls, refusals and skipped pulls, day × calculator ×
 * origin × step for the funnel) wait unwritten on one
 * server. While the database is down they grow with every new day, calculator and origin;
 * past the cap a load still counts towards its month (quotas and the monthly total stay
 * exact) but not towards a new per-day row, and `onDropped` reports how many
 * (docs/operations.md, "Database outages").
 */
export const MAX_PENDING_DAY_KEYS = 50_000;

/**
 * The per-day counts kept per account beside the loads, each with the last key of its
 * rows; each is flushed into a table of its own. Another per-day count is a line here,
 * its rows in `pendingDeltas` and a table in the store.
 */
interface DailyKeys {
  /** Webhook calls made for loads, by outcome. */
  calls: PullOutcome;
  /** Widget calls with a valid key that were refused, by reason. */
  refused: RefusalReason;
  /** Pulls a load was due that were skipped (no call made), by reason. */
  skipped: SkipReason;
  /** Funnel steps by page origin and step (`funnelKey`): four levels, the last two joined. */
  funnel: FunnelKey;
}

type DailyKind = keyof DailyKeys;
const DAILY_KINDS: readonly DailyKind[] = ['calls', 'refused', 'skipped', 'funnel'];

/** A funnel count's last key: the page's origin and the step (an origin never holds U+0000). */
type FunnelKey = `${string}\u0000${FunnelEvent}`;
const funnelKey = (domain: string, event: FunnelEvent): FunnelKey => `${domain}${SEP}${event}`;
function splitFunnelKey(key: FunnelKey): [string, FunnelEvent] {
  const at = key.lastIndexOf(SEP);
  return [key.slice(0, at), key.slice(at + 1) as FunnelEvent];
}

/** Counts the per-day analytics could not keep because the cap on pending keys was reached. */
type DroppedDetail = Record<'loads' | DailyKind, number> & { cap: number };

export interface UsageCounterOptions {
  /** Called once per flush attempt when counts lost their per-day detail since the last. */
  onDropped?: (dropped: DroppedDetail) => void;
  /**
   * Called, synchronously and without waiting, when this server sees a limit's threshold
   * crossed: by a load it counts, or by other servers' loads read after a flush. Other
   * servers may see the same crossing: the receiver makes it once (docs/results.md).
   */
  onThreshold?: (crossing: ThresholdCrossing) => void;
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

/** A tally's last key: written only through `countDaily`, so always one of its kind's keys. */
const keyOf = <K extends DailyKind>(key: string): DailyKeys[K] => key as DailyKeys[K];

/**
 * Whether a load is counted (`ok`) or why not: the month's quota is used, or the owner's
 * cap of loads a day (in all, or from the load's origin) is reached. Strings, so
 * answering allocates nothing.
 */
export type LoadVerdict = 'ok' | 'quota_exceeded' | 'day_cap' | 'domain_cap';

/** The quota thresholds an owner hears about: 80 % (a warning) and 100 % (exhausted). */
export type QuotaThreshold = 'warning' | 'exhausted';

/** The limits a load is held to: the plan's monthly quota and the owner's daily caps. */
type LimitKind = 'quota' | keyof LoadCaps;

/**
 * A limit's threshold crossed: the month's quota at 80 % or 100 %, or an owner's daily
 * cap reached (exhausted only). `period` is the quota's month ("YYYY-MM") or the cap's
 * day ("YYYY-MM-DD"); `domain` the origin of a per-origin cap.
 */
export interface ThresholdCrossing {
  accountId: string;
  threshold: QuotaThreshold;
  limitKind: LimitKind;
  period: string;
  used: number;
  limit: number;
  domain?: string;
}

/** The share of the quota at which owners are warned. */
const WARNING_SHARE = 0.8;

/**
 * The threshold a month's count crossed going from `before` to `after` loads, if any: the
 * one place the 80 % and 100 % crossings are found. The 100 % crossing flushes
 * (`onLimitReached`); both go to `onThreshold`, which sends the `usage.warning` and
 * `usage.exhausted` events to the owner's results endpoint.
 */
export function quotaThresholdCrossed(before: number, after: number, limit: number): QuotaThreshold | null {
  if (before < limit && after >= limit) return 'exhausted';
  const warnAt = Math.ceil(limit * WARNING_SHARE);
  return before < warnAt && after >= warnAt ? 'warning' : null;
}

/** For `tryCount` and `admits` callers without daily caps. */
const NO_CAPS: LoadCaps = { loadsPerDay: null, loadsPerDayPerDomain: null };

const hasDailyCap = (caps: LoadCaps): boolean => caps.loadsPerDay !== null || caps.loadsPerDayPerDomain !== null;

/**
 * Counts widget loads in memory and writes them in batches: a database write per load
 * would be the hot path's slowest step. Each load counts towards the month (the quota)
 * and towards its day, calculator and page origin (the analytics); each webhook call,
 * refused widget call and skipped pull towards its day, calculator and outcome or reason;
 * each funnel step towards its day, calculator, origin and step.
 * `used()` and the pending rows always include what is not yet on disk, and `flush()`
 * writes it all in one transaction, on a timer and on shutdown, so a clean stop loses
 * nothing.
 *
 * A `kill -9` loses what is not yet written, which gives that much quota back. The load
 * that reaches an account's limit calls `onLimitReached` (the server flushes at once), so
 * an account at its limit is on disk before that load is answered and a crash cannot
 * serve it again.
 *
 * An owner's daily caps are checked against the day's loads (`day-totals.ts`), kept only
 * for accounts that set one: without a cap a load costs what it did before caps existed.
 */
export function createUsageCounter(
  store: Pick<UsageStore, 'loads' | 'loadsOnDay' | 'addAll'>,
  onLimitReached: () => void | Promise<void> = () => {},
  options: UsageCounterOptions = {},
) {
  const cap = options.maxPendingDayKeys ?? MAX_PENDING_DAY_KEYS;
  /** Pending per-day keys, of every kind together: what the cap bounds. */
  let dayKeys = 0;
  const dropped: Record<'loads' | DailyKind, number> = { loads: 0, calls: 0, refused: 0, skipped: 0, funnel: 0 };
  const entries = new Map<string, Entry>();
  /** Unflushed per-day counts of each kind by account, then day, calculator and outcome or reason. */
  let daily = emptyDaily();
  // One read of a stored total per key, however many loads ask for it at once.
  const reading = new Map<string, Promise<Entry>>();
  let flushing: Promise<void> | null = null;
  const touched = new Set<string>();
  const onThreshold = options.onThreshold;
  const dayTotals = createDayTotals(store.loadsOnDay, capFull);

  function emptyDaily(): Record<DailyKind, Map<string, Tally>> {
    return { calls: new Map(), refused: new Map(), skipped: new Map(), funnel: new Map() };
  }

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
          const created: Entry = { accountId, period, limit: 0, stored, pending: 0, days: new Map() };
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
    if (dropped.loads + DAILY_KINDS.reduce((sum, kind) => sum + dropped[kind], 0) > 0) {
      options.onDropped?.({ ...dropped, cap });
      dropped.loads = 0;
      for (const kind of DAILY_KINDS) dropped[kind] = 0;
    }
    await writeDeltas();
    await refreshTouched();
    await dayTotals.refresh();
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
      const { accountId, period } = e;
      const stored = e.stored;
      const read = await store.loads(accountId, period);
      // Loads counted during the read crossed on their own: only the jump is judged here.
      const before = stored + e.pending;
      e.stored = read;
      const crossed = e.limit > 0 ? quotaThresholdCrossed(before, read + e.pending, e.limit) : null;
      if (crossed !== null) quotaCrossed(e, crossed, read + e.pending);
    }
  }

  async function writeDeltas(): Promise<void> {
    const deltas = pendingDeltas();
    if (deltas.monthly.length + DAILY_KINDS.reduce((sum, kind) => sum + deltas[kind].length, 0) === 0) return;
    const taken: { key: string; entry: Entry; loads: number; days: Tally }[] = [];
    for (const [key, e] of entries) {
      if (e.pending === 0) continue;
      taken.push({ key, entry: e, loads: e.pending, days: e.days });
      e.stored += e.pending;
      e.pending = 0;
      e.days = new Map();
    }
    const takenDaily = daily;
    daily = emptyDaily();
    const undoDayTotals = dayTotals.markWritten();
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
      undoDayTotals();
      for (const kind of DAILY_KINDS) {
        for (const [accountId, mine] of takenDaily[kind]) {
          let now = daily[kind].get(accountId);
          if (!now) {
            now = new Map();
            daily[kind].set(accountId, now);
          }
          addInto(now, mine);
        }
      }
      // Merged back: keys counted during the write and taken ones may coincide.
      dayKeys = 0;
      for (const e of entries.values()) dayKeys += keysOf(e.days);
      for (const kind of DAILY_KINDS) for (const mine of daily[kind].values()) dayKeys += keysOf(mine);
      throw error;
    }
  }

  /** Counts a per-day key, within the cap on pending keys (see MAX_PENDING_DAY_KEYS). */
  function countDay(counts: Tally, day: string, calcId: string, last: string, kind: 'loads' | DailyKind): void {
    const done = tally(counts, day, calcId, last, dayKeys < cap);
    if (done === NEW_KEY) dayKeys += 1;
    else if (done === NO_ROOM) dropped[kind] += 1;
  }

  /** Counts one per-day key of an account's `kind`. */
  function countDaily<K extends DailyKind>(kind: K, accountId: string, day: string, calcId: string, key: DailyKeys[K]) {
    let mine = daily[kind].get(accountId);
    if (!mine) {
      mine = new Map();
      daily[kind].set(accountId, mine);
    }
    countDay(mine, day, calcId, key, kind);
  }

  /** One account's unflushed counts of `kind` on days `from`..`to`, as [date, calcId, key, count]. */
  function* pendingOf<K extends DailyKind>(
    kind: K,
    accountId: string,
    from: string,
    to: string,
  ): Generator<[string, string, DailyKeys[K], number]> {
    const mine = daily[kind].get(accountId);
    if (!mine) return;
    for (const [date, calcId, key, count] of entriesOf(mine))
      if (date >= from && date <= to) yield [date, calcId, keyOf<K>(key), count];
  }

  /** One account's unflushed counts of a kind keyed by reason, as `{date, calcId, reason, count}` rows. */
  function reasonRows<K extends 'refused' | 'skipped'>(kind: K, accountId: string, from: string, to: string) {
    return [...pendingOf(kind, accountId, from, to)].map(([date, calcId, reason, count]) => ({
      date,
      calcId,
      reason,
      count,
    }));
  }

  /**
   * Counts one load within the month's limit: the step every counted load takes. The load
   * that crosses the quota's last threshold is answered once the count is on disk.
   */
  function countLoad(
    e: Entry,
    day: string,
    limit: number,
    calcId: string,
    domain: string,
  ): LoadVerdict | Promise<LoadVerdict> {
    if (e.stored + e.pending >= limit) return 'quota_exceeded';
    e.pending += 1;
    e.limit = limit;
    countDay(e.days, day, calcId, domain, 'loads');
    const used = e.stored + e.pending;
    const crossed = quotaThresholdCrossed(used - 1, used, limit);
    if (crossed === null) return 'ok';
    quotaCrossed(e, crossed, used);
    if (crossed === 'warning') return 'ok';
    return Promise.resolve(onLimitReached()).then(() => 'ok');
  }

  function quotaCrossed(e: Entry, threshold: QuotaThreshold, used: number): void {
    onThreshold?.({ accountId: e.accountId, threshold, limitKind: 'quota', period: e.period, used, limit: e.limit });
  }

  /** A daily cap reached, as a crossing of its only threshold. */
  function capFull(cap: CapReached): void {
    onThreshold?.({
      accountId: cap.accountId,
      threshold: 'exhausted',
      limitKind: cap.cap,
      period: cap.day,
      used: cap.used,
      limit: cap.limit,
      ...(cap.domain === undefined ? {} : { domain: cap.domain }),
    });
  }

  /** This server's unwritten loads of one account on one day, per origin (from the month's entry). */
  function* unwrittenOn(e: Entry, day: string): Generator<[string, number]> {
    for (const last of e.days.get(day)?.values() ?? []) yield* last;
  }

  /** The month's entry and the day's totals of a capped account, read first when either is not in memory. */
  async function readCapped(accountId: string, day: string): Promise<[Entry, DayTotal]> {
    const e = await entry(accountId, day.slice(0, 7));
    const total = dayTotals.known(accountId, day) ?? (await dayTotals.read(accountId, day, () => unwrittenOn(e, day)));
    return [e, total];
  }

  /** A load of an account with a daily cap: quota, then caps, then counted (check and count one step). */
  function countCapped(
    e: Entry,
    total: DayTotal,
    day: string,
    limit: number,
    calcId: string,
    domain: string,
    caps: LoadCaps,
  ): LoadVerdict | Promise<LoadVerdict> {
    if (e.stored + e.pending >= limit) return 'quota_exceeded';
    const refused = takeDayLoad(total, domain, caps);
    if (refused !== null) return refused;
    if (onThreshold) loadReachedCaps(e.accountId, total, domain, capFull);
    return countLoad(e, day, limit, calcId, domain);
  }

  function pendingDeltas(): UsageDeltas {
    const deltas: UsageDeltas = { monthly: [], loads: [], calls: [], refused: [], skipped: [], funnel: [] };
    for (const e of entries.values()) {
      if (e.pending === 0) continue;
      const { accountId, period } = e;
      deltas.monthly.push({ accountId, period, loads: e.pending });
      for (const [day, calcId, domain, loads] of entriesOf(e.days))
        deltas.loads.push({ accountId, day, calcId, domain, loads });
    }
    for (const [accountId, mine] of daily.calls)
      for (const [day, calcId, outcome, calls] of entriesOf(mine))
        deltas.calls.push({ accountId, day, calcId, outcome: keyOf<'calls'>(outcome), calls });
    for (const [accountId, mine] of daily.refused)
      for (const [day, calcId, reason, count] of entriesOf(mine))
        deltas.refused.push({ accountId, day, calcId, reason: keyOf<'refused'>(reason), count });
    for (const [accountId, mine] of daily.skipped)
      for (const [day, calcId, reason, count] of entriesOf(mine))
        deltas.skipped.push({ accountId, day, calcId, reason: keyOf<'skipped'>(reason), count });
    for (const [accountId, mine] of daily.funnel)
      for (const [day, calcId, key, count] of entriesOf(mine)) {
        const [domain, event] = splitFunnelKey(keyOf<'funnel'>(key));
        deltas.funnel.push({ accountId, day, calcId, domain, event, count });
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
     * Counts one load on `day` ("YYYY-MM-DD") unless the month's limit or one of the
     * owner's daily `caps` is reached; check and count are one synchronous step once the
     * month's stored total (and, with a daily cap, the day's) is known, and then the
     * answer comes without a promise (every widget load passes here).
     */
    tryCount(
      accountId: string,
      day: string,
      limit: number,
      calcId: string,
      domain: string,
      caps: LoadCaps = NO_CAPS,
    ): LoadVerdict | Promise<LoadVerdict> {
      if (hasDailyCap(caps)) {
        const e = entry(accountId, day.slice(0, 7));
        const total = e instanceof Promise ? undefined : dayTotals.known(accountId, day);
        if (total !== undefined && !(e instanceof Promise))
          return countCapped(e, total, day, limit, calcId, domain, caps);
        return readCapped(accountId, day).then(([known, read]) =>
          countCapped(known, read, day, limit, calcId, domain, caps),
        );
      }
      const e = entry(accountId, day.slice(0, 7));
      return e instanceof Promise
        ? e.then((known) => countLoad(known, day, limit, calcId, domain))
        : countLoad(e, day, limit, calcId, domain);
    },

    /** What `tryCount` would answer for a load from `domain` on `day`, counting nothing (verify). */
    admits(
      accountId: string,
      day: string,
      limit: number,
      domain: string,
      caps: LoadCaps = NO_CAPS,
    ): LoadVerdict | Promise<LoadVerdict> {
      const judge = (e: Entry, total?: DayTotal): LoadVerdict =>
        e.stored + e.pending >= limit ? 'quota_exceeded' : ((total && capReached(total, domain, caps)) ?? 'ok');
      const e = entry(accountId, day.slice(0, 7));
      if (hasDailyCap(caps)) {
        const total = e instanceof Promise ? undefined : dayTotals.known(accountId, day);
        if (total !== undefined && !(e instanceof Promise)) return judge(e, total);
        return readCapped(accountId, day).then(([known, read]) => judge(known, read));
      }
      return e instanceof Promise ? e.then((known) => judge(known)) : judge(e);
    },

    /** Counts one webhook call made for a load, by its outcome. */
    countCall(accountId: string, day: string, calcId: string, outcome: PullOutcome): void {
      countDaily('calls', accountId, day, calcId, outcome);
    },

    /** Counts one refused widget call with the account's key, by reason (the caller checked `calcId` exists). */
    countRefused(accountId: string, day: string, calcId: string, reason: RefusalReason): void {
      countDaily('refused', accountId, day, calcId, reason);
    },

    /** Counts one pull a load was due that was skipped, by reason. */
    countSkipped(accountId: string, day: string, calcId: string, reason: SkipReason): void {
      countDaily('skipped', accountId, day, calcId, reason);
    },

    /**
     * Counts one step of a calculator's funnel from a page origin (docs/api.md, "Funnel"):
     * the widget's `view`, `start` and `complete` (POST /v1/widget/events), and `submit` when
     * the server accepts a submitted result. Never a load: no quota, no cap.
     */
    countFunnel(accountId: string, day: string, calcId: string, domain: string, event: FunnelEvent): void {
      countDaily('funnel', accountId, day, calcId, funnelKey(domain, event));
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
      return [...pendingOf('calls', accountId, from, to)].map(([date, calcId, outcome, calls]) => ({
        date,
        calcId,
        outcome,
        calls,
      }));
    },

    /** One account's unflushed refused calls on days `from`..`to`, in no particular order. */
    pendingRefused: (accountId: string, from: string, to: string): DailyRefused[] =>
      reasonRows('refused', accountId, from, to),

    /** One account's unflushed skipped pulls on days `from`..`to`, in no particular order. */
    pendingSkipped: (accountId: string, from: string, to: string): DailySkipped[] =>
      reasonRows('skipped', accountId, from, to),

    /**
     * One account's unflushed funnel counts on days `from`..`to`, one row per day,
     * calculator and origin, in no particular order.
     */
    pendingFunnel(accountId: string, from: string, to: string): DailyFunnel[] {
      const rows = new Map<string, DailyFunnel>();
      for (const [date, calcId, key, count] of pendingOf('funnel', accountId, from, to)) {
        const [domain, event] = splitFunnelKey(key);
        const id = `${date}${SEP}${calcId}${SEP}${domain}`;
        let row = rows.get(id);
        if (!row) {
          row = { date, calcId, domain, ...noFunnel() };
          rows.set(id, row);
        }
        row[FUNNEL_COUNTS[event]] += count;
      }
      return [...rows.values()];
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
