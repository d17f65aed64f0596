/**
 * One counter per key over any number of fixed windows, given as data
 * (`[{ ms: 60_000, limit: 120 }, { ms: 86_400_000, limit: 2_000 }]`). Windows are aligned
 * to the clock (a minute window starts on the minute, a day window at 00:00 UTC), so a
 * count and its `Retry-After` are the same for every key and easy to reason about.
 *
 * Memory is bounded: at most `capacity` keys are kept. Past it the least recently used
 * key that is under its limits makes room (approximately: a key used within the last
 * capacity/2 new keys is never dropped). A key over its limit — its next hit would be
 * refused — is never dropped before its window ends, however many other keys arrive, so a
 * flood of new keys cannot give a limited client its budget back; when the oldest keys
 * are all limited, a new key is refused instead (its `take` answers the seconds until one
 * of them is released). Each key costs about 200 bytes (bench/results/limits.json), so the
 * default capacity of 100,000 keys stays near 20 MB.
 */
export interface RateWindow {
  /** Length of the window in milliseconds. */
  ms: number;
  /** Hits allowed per window; 0 turns the window off. */
  limit: number;
}

export interface RateLimiterOptions {
  windows: readonly RateWindow[];
  /** Most keys kept at once (see above for which make room). */
  capacity?: number;
  /** Milliseconds since the epoch (tests inject their own clock). */
  now?: () => number;
}

export interface RateLimiter {
  /**
   * Counts one hit for `key` and answers null, or, when a window is already full (or the
   * key is new and every key that could make room is limited), counts nothing and
   * answers the seconds to wait.
   */
  take(key: string): number | null;
  /** As `take` for a key the limiter holds; undefined, counting nothing, for one it does not. */
  takeHeld(key: string): number | null | undefined;
  /** The seconds a `take` would have to wait, or null; counts nothing. */
  check(key: string): number | null;
  /**
   * Counts one hit whatever the limits say (a failure charged after the fact) and
   * answers null; the seconds to wait, counting nothing, when a new key finds no room.
   */
  add(key: string): number | null;
  /** Takes back one hit of the current windows (an attempt charged up front that went well). */
  refund(key: string): void;
  /** Forgets the key. */
  reset(key: string): void;
  /** Keys held now (for the memory bound's tests). */
  readonly size: number;
}

const DEFAULT_RATE_CAPACITY = 100_000;

/**
 * How many limited keys one new key looks at, oldest first, for one whose windows have
 * ended, when every key held is limited. Bounded, so a limiter full of limited keys
 * costs a new key a few moves, not a walk over all of them.
 */
const ROOM_SEARCH = 32;

/**
 * Per window: the index of the window it counts in (`floor(now / ms)`) and the count;
 * then the entry's insertion number while it is under its limits, or LIMITED. Stored
 * flat in one small array per key.
 */
type Entry = number[];
const LIMITED = -1;

export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const windows = options.windows.filter((w) => w.limit > 0);
  const capacity = options.capacity ?? DEFAULT_RATE_CAPACITY;
  const now = options.now ?? Date.now;
  if (!Number.isSafeInteger(capacity) || capacity < 1) throw new Error('capacity must be a positive integer');
  for (const w of windows) {
    if (!(w.ms > 0) || !Number.isSafeInteger(w.limit)) throw new Error('each window needs ms > 0 and a whole limit');
  }
  // Keys under their limits, least recently used first: the ones that make room.
  const open = new Map<string, Entry>();
  // Keys whose next hit would be refused (as of their last count), in the order they got
  // there: never dropped while a window of theirs is full.
  const limited = new Map<string, Entry>();
  // Insertion number of each open entry's last (re)insertion is kept in its last slot. An
  // entry inserted within the last capacity/2 insertions is in the newer half of the Map
  // and cannot be evicted for at least capacity/2 more: using it needs no move. So a hit
  // is one lookup, and only entries drifting into the older half are moved to the end.
  const last = windows.length * 2;
  const limits = windows.map((w) => w.limit);
  const spans = windows.map((w) => w.ms);
  const young = Math.max(1, Math.floor(capacity / 2));
  let inserted = 0;

  const toOpen = (key: string, entry: Entry) => {
    if (entry[last] === LIMITED) limited.delete(key);
    else open.delete(key);
    entry[last] = ++inserted;
    open.set(key, entry);
  };
  const toLimited = (key: string, entry: Entry) => {
    open.delete(key);
    entry[last] = LIMITED;
    limited.set(key, entry);
  };

  /** The seconds until every full window of an entry has ended, or null: a window that has ended counts as empty. */
  const wait = (entry: Entry, at: number): number | null => {
    let until = 0;
    for (let i = 0; i < windows.length; i++) {
      const w = windows[i] as RateWindow;
      const index = entry[2 * i] as number;
      if (index === Math.floor(at / w.ms) && (entry[2 * i + 1] as number) >= w.limit)
        until = Math.max(until, (index + 1) * w.ms);
    }
    return until === 0 ? null : Math.max(1, Math.ceil((until - at) / 1000));
  };

  /**
   * Drops the longest limited key when its windows have all ended, else the least recently
   * used key under its limits, and answers null. With none of those, looks further among
   * the limited keys for one whose windows have ended; when the ones looked at are all
   * still limited, drops none and answers the seconds until the first of them is released
   * (those looked at move to the end, so the next search starts past them).
   */
  const makeRoom = (at: number): number | null => {
    const longest = limited.entries().next();
    if (!longest.done && wait(longest.value[1], at) === null) {
      limited.delete(longest.value[0]);
      return null;
    }
    const oldest = open.keys().next();
    if (!oldest.done) {
      open.delete(oldest.value);
      return null;
    }
    const held: [string, Entry][] = [];
    let soonest = Number.POSITIVE_INFINITY;
    for (const [key, entry] of limited) {
      const seconds = wait(entry, at);
      if (seconds === null) {
        limited.delete(key);
        soonest = 0;
        break;
      }
      held.push([key, entry]);
      soonest = Math.min(soonest, seconds);
      if (held.length >= ROOM_SEARCH) break;
    }
    for (const [key, entry] of held) {
      limited.delete(key);
      limited.set(key, entry);
    }
    return soonest === 0 ? null : soonest;
  };

  /**
   * The key's entry with stale windows zeroed (an open one kept out of the eviction end);
   * or, for a new key that finds no room, the seconds to wait.
   */
  const current = (key: string, at: number, create: boolean): Entry | number | undefined => {
    let entry = open.get(key);
    if (entry === undefined) {
      entry = limited.get(key);
      if (entry === undefined) {
        if (!create) return undefined;
        if (open.size + limited.size >= capacity) {
          const full = makeRoom(at);
          if (full !== null) return full;
        }
        entry = new Array<number>(last + 1).fill(0);
        entry[last] = ++inserted;
        open.set(key, entry);
      }
    } else if (inserted - (entry[last] as number) >= young) {
      toOpen(key, entry);
    }
    for (let i = 0; i < windows.length; i++) {
      const index = Math.floor(at / (spans[i] as number));
      if (entry[2 * i] !== index) {
        entry[2 * i] = index;
        entry[2 * i + 1] = 0;
      }
    }
    return entry;
  };

  /** Adds `by` to each window's count, then files the entry as open or limited. */
  const count = (key: string, entry: Entry, by: number) => {
    let full = false;
    for (let i = 0; i < windows.length; i++) {
      const n = Math.max(0, (entry[2 * i + 1] as number) + by);
      entry[2 * i + 1] = n;
      if (n >= (windows[i] as RateWindow).limit) full = true;
    }
    if (full !== (entry[last] === LIMITED)) {
      if (full) toLimited(key, entry);
      else toOpen(key, entry);
    }
  };

  /**
   * One hit: counted (null) unless a window is full; the entry filed as limited when this
   * hit fills a window, as open when it was limited and its windows have ended. The path of
   * every widget call on a held key: no allocation, one pass to check, one to count.
   */
  const hit = (key: string, entry: Entry | number, at: number): number | null => {
    if (typeof entry === 'number') return entry;
    for (let i = 0; i < windows.length; i++)
      if ((entry[2 * i + 1] as number) >= (limits[i] as number)) return wait(entry, at);
    count(key, entry, 1);
    return null;
  };

  return {
    take(key) {
      if (windows.length === 0) return null;
      const at = now();
      return hit(key, current(key, at, true) as Entry | number, at);
    },
    takeHeld(key) {
      if (windows.length === 0) return null;
      const at = now();
      const entry = current(key, at, false);
      return entry === undefined ? undefined : hit(key, entry, at);
    },
    check(key) {
      if (windows.length === 0) return null;
      const at = now();
      const entry = current(key, at, false);
      return entry === undefined ? null : wait(entry as Entry, at);
    },
    add(key) {
      if (windows.length === 0) return null;
      const entry = current(key, now(), true) as Entry | number;
      if (typeof entry === 'number') return entry;
      count(key, entry, 1);
      return null;
    },
    refund(key) {
      const entry = windows.length > 0 ? current(key, now(), false) : undefined;
      if (entry !== undefined) count(key, entry as Entry, -1);
    },
    reset(key) {
      open.delete(key);
      limited.delete(key);
    },
    get size() {
      return open.size + limited.size;
    },
  };
}
