/**
 * One counter per key over any number of fixed windows, given as data
 * (`[{ ms: 60_000, limit: 120 }, { ms: 86_400_000, limit: 2_000 }]`). Windows are aligned
 * to the clock (a minute window starts on the minute, a day window at 00:00 UTC), so a
 * count and its `Retry-After` are the same for every key and easy to reason about.
 *
 * Memory is bounded: at most `capacity` keys are kept, least recently used first out
 * (approximately: a key used within the last capacity/2 new keys is never dropped).
 * Each key costs about 200 bytes (measured by test/unit/limits/rate-limiter.test.ts), so the default
 * capacity of 100,000 keys stays near 20 MB however many distinct clients arrive.
 * Evicting a key forgets its counts: a flood of distinct clients can only free the
 * oldest idle clients' budgets, never lift a limit for the busy keys it is made of.
 */
export interface RateWindow {
  /** Length of the window in milliseconds. */
  ms: number;
  /** Hits allowed per window; 0 turns the window off. */
  limit: number;
}

export interface RateLimiterOptions {
  windows: readonly RateWindow[];
  /** Most keys kept at once (least recently used are dropped past it). */
  capacity?: number;
  /** Milliseconds since the epoch (tests inject their own clock). */
  now?: () => number;
}

export interface RateLimiter {
  /**
   * Counts one hit for `key` and answers null, or, when a window is already full,
   * counts nothing and answers the seconds until the last full window ends.
   */
  take(key: string): number | null;
  /** The seconds a `take` would have to wait, or null; counts nothing. */
  check(key: string): number | null;
  /** Counts one hit whatever the limits say (a failure charged after the fact). */
  add(key: string): void;
  /** Takes back one hit of the current windows (an attempt charged up front that went well). */
  refund(key: string): void;
  /** Forgets the key. */
  reset(key: string): void;
  /** Keys held now (for the memory bound's tests). */
  readonly size: number;
}

const DEFAULT_RATE_CAPACITY = 100_000;

/**
 * Per window: the index of the window it counts in (`floor(now / ms)`) and the count,
 * then the entry's insertion number. Stored flat in one small array per key.
 */
type Entry = number[];

export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const windows = options.windows.filter((w) => w.limit > 0);
  const capacity = options.capacity ?? DEFAULT_RATE_CAPACITY;
  const now = options.now ?? Date.now;
  if (!Number.isSafeInteger(capacity) || capacity < 1) throw new Error('capacity must be a positive integer');
  for (const w of windows) {
    if (!(w.ms > 0) || !Number.isSafeInteger(w.limit)) throw new Error('each window needs ms > 0 and a whole limit');
  }
  const entries = new Map<string, Entry>();
  // Insertion number of each entry's last (re)insertion is kept in its last slot. An entry
  // inserted within the last capacity/2 insertions is in the newer half of the Map and
  // cannot be evicted for at least capacity/2 more: using it needs no move. So a hit
  // is one lookup, and only entries drifting into the older half are moved to the end.
  const last = windows.length * 2;
  const young = Math.max(1, Math.floor(capacity / 2));
  let inserted = 0;

  /** The key's entry with stale windows zeroed, kept out of the eviction end. */
  const current = (key: string, at: number, create: boolean): Entry | undefined => {
    let entry = entries.get(key);
    if (entry === undefined) {
      if (!create) return undefined;
      entry = new Array<number>(last + 1).fill(0);
      if (entries.size >= capacity) {
        // A Map iterates in insertion order: its first key is the least recently moved.
        const oldest = entries.keys().next();
        if (!oldest.done) entries.delete(oldest.value);
      }
      entry[last] = ++inserted;
      entries.set(key, entry);
    } else if (inserted - (entry[last] as number) >= young) {
      entries.delete(key);
      entry[last] = ++inserted;
      entries.set(key, entry);
    }
    for (let i = 0; i < windows.length; i++) {
      const index = Math.floor(at / (windows[i] as RateWindow).ms);
      if (entry[2 * i] !== index) {
        entry[2 * i] = index;
        entry[2 * i + 1] = 0;
      }
    }
    return entry;
  };

  const wait = (entry: Entry, at: number): number | null => {
    let until = 0;
    for (let i = 0; i < windows.length; i++) {
      const w = windows[i] as RateWindow;
      if ((entry[2 * i + 1] as number) >= w.limit) until = Math.max(until, ((entry[2 * i] as number) + 1) * w.ms);
    }
    return until === 0 ? null : Math.max(1, Math.ceil((until - at) / 1000));
  };

  const count = (entry: Entry, by: number) => {
    for (let i = 0; i < windows.length; i++) entry[2 * i + 1] = Math.max(0, (entry[2 * i + 1] as number) + by);
  };

  return {
    take(key) {
      if (windows.length === 0) return null;
      const at = now();
      const entry = current(key, at, true) as Entry;
      const seconds = wait(entry, at);
      if (seconds === null) count(entry, 1);
      return seconds;
    },
    check(key) {
      if (windows.length === 0) return null;
      const at = now();
      const entry = current(key, at, false);
      return entry === undefined ? null : wait(entry, at);
    },
    add(key) {
      if (windows.length > 0) count(current(key, now(), true) as Entry, 1);
    },
    refund(key) {
      const entry = windows.length > 0 ? current(key, now(), false) : undefined;
      if (entry !== undefined) count(entry, -1);
    },
    reset(key) {
      entries.delete(key);
    },
    get size() {
      return entries.size;
    },
  };
}
