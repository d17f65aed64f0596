/**
 * Counts by three keys, one map per level: every key of a load (the cached day string, a
 * calculator id, a cached origin or a constant reason) is a string whose hash is already
 * known, so a count is three lookups and no string building (docs/performance.md).
 */
export type Tally = Map<string, Map<string, Map<string, number>>>;

/** What `tally` did: counted on a known key, made a new key, or counted nothing. */
const COUNTED = 0;
export const NEW_KEY = 1;
export const NO_ROOM = 2;

/**
 * Adds one to key (a, b, c); a new key only when `roomForNew` (the cap on pending keys is
 * not reached), else nothing is counted.
 */
export function tally(counts: Tally, a: string, b: string, c: string, roomForNew: boolean): number {
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
export function keysOf(counts: Tally): number {
  let n = 0;
  for (const level of counts.values()) for (const last of level.values()) n += last.size;
  return n;
}

/** Adds every count of `from` into `into` (a failed flush gives its counts back). */
export function addInto(into: Tally, from: Tally): void {
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

export function* entriesOf(counts: Tally): Generator<[string, string, string, number]> {
  for (const [a, level] of counts) for (const [b, last] of level) for (const [c, n] of last) yield [a, b, c, n];
}
