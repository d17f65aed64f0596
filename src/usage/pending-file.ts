import {
  closeSync,
  existsSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { DataDirError } from '../data-dir/errors.ts';
import { DAILY_DELTAS, type UsageDeltas } from '../db/usage-store.ts';

/** Counts a failed shutdown flush could not write; the next start adds them and removes the file. */
export const PENDING_FILE = 'usage-pending.json';
/**
 * Space kept aside for that file while the server runs: a full disk is the likeliest
 * reason the flush failed, and then a new file could not be written either. Overwriting
 * blocks the reserve already holds needs no new ones.
 */
const RESERVE_FILE = 'usage-pending.reserve';
/** Room for some thousands of rows; grown when more are counted at once. */
const MIN_RESERVE_BYTES = 256 * 1024;
/** A generous size of one row in the file. */
const BYTES_PER_ROW = 160;

interface PendingFileBody {
  written: string;
  deltas: UsageDeltas;
}

const EMPTY: UsageDeltas = { monthly: [], loads: [], calls: [], refused: [], skipped: [], funnel: [] };

/** The rows of some deltas, for sizes. */
export const rowsOf = (deltas: UsageDeltas): number =>
  deltas.monthly.length + DAILY_DELTAS.reduce((sum, list) => sum + deltas[list].length, 0);

/** The widget loads some deltas add (their monthly totals). */
export const loadsOf = (deltas: UsageDeltas): number => deltas.monthly.reduce((sum, row) => sum + row.loads, 0);

/**
 * Makes sure the reserve can hold `rows` pending rows (and at least the minimum). Its
 * bytes are written, not a sparse truncate, so the space is really taken. Best effort: a
 * reserve that cannot grow is no worse than none.
 */
export function reservePendingSpace(dataDir: string, rows = 0): void {
  const file = join(dataDir, RESERVE_FILE);
  const wanted = Math.max(MIN_RESERVE_BYTES, rows * BYTES_PER_ROW * 2);
  try {
    const fd = openSync(file, 'a+', 0o600);
    try {
      const size = Bun.file(file).size;
      if (size < wanted) writeSync(fd, Buffer.alloc(wanted - size, 0x20));
    } finally {
      closeSync(fd);
    }
  } catch {
    // Nothing to do: writing the pending file will try without it.
  }
}

/**
 * Writes the counts to `usage-pending.json`: into the reserve when it exists (then renamed),
 * else as a new file. Throws when neither works.
 */
export function writePendingUsage(dataDir: string, deltas: UsageDeltas, now: Date): string {
  const target = join(dataDir, PENDING_FILE);
  const existing = readPendingUsage(dataDir);
  const body: PendingFileBody = {
    written: now.toISOString(),
    deltas: {
      monthly: [...existing.monthly, ...deltas.monthly],
      loads: [...existing.loads, ...deltas.loads],
      calls: [...existing.calls, ...deltas.calls],
      refused: [...existing.refused, ...deltas.refused],
      skipped: [...existing.skipped, ...deltas.skipped],
      funnel: [...existing.funnel, ...deltas.funnel],
    },
  };
  const text = Buffer.from(`${JSON.stringify(body)}\n`);
  const reserve = join(dataDir, RESERVE_FILE);
  const source = existsSync(reserve) ? reserve : `${target}.tmp`;
  const fd = openSync(source, source === reserve ? 'r+' : 'w', 0o600);
  try {
    writeSync(fd, text, 0, text.length, 0);
    ftruncateSync(fd, text.length);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(source, target);
  return target;
}

/** The counts in `usage-pending.json`, or none when there is no such file. */
function readPendingUsage(dataDir: string): UsageDeltas {
  const file = join(dataDir, PENDING_FILE);
  if (!existsSync(file)) return EMPTY;
  try {
    const { deltas } = JSON.parse(readFileSync(file, 'utf8')) as { deltas: Partial<UsageDeltas> };
    // A file written before refusals, skipped pulls or the funnel were counted lacks their lists.
    const complete = { refused: [], skipped: [], funnel: [], ...deltas };
    if (!isDeltas(complete)) throw new Error('unexpected content');
    return complete;
  } catch (error) {
    throw new DataDirError(
      `${file} holds widget load counts a failed shutdown could not write, but it cannot be read (${String(error)}). Fix or move the file, then start again.`,
    );
  }
}

/**
 * Adds the counts of `usage-pending.json` through `addAll` and removes the file. Called on
 * start, before the server counts anything. Returns how many loads were added.
 */
export async function applyPendingUsage(
  dataDir: string,
  addAll: (deltas: UsageDeltas) => void | Promise<void>,
): Promise<number> {
  const file = join(dataDir, PENDING_FILE);
  if (!existsSync(file)) return 0;
  const deltas = readPendingUsage(dataDir);
  await addAll(deltas);
  rmSync(file);
  return loadsOf(deltas);
}

/** The file's shape: lists of rows, each with an account and a positive whole count. */
function isDeltas(value: unknown): value is UsageDeltas {
  const d = value as UsageDeltas;
  const rows = (list: unknown, count: string) =>
    Array.isArray(list) &&
    list.every(
      (row) =>
        typeof row === 'object' &&
        row !== null &&
        typeof row.accountId === 'string' &&
        Number.isSafeInteger(row[count]) &&
        row[count] > 0,
    );
  return (
    typeof d === 'object' &&
    d !== null &&
    rows(d.monthly, 'loads') &&
    rows(d.loads, 'loads') &&
    rows(d.calls, 'calls') &&
    rows(d.refused, 'count') &&
    rows(d.skipped, 'count') &&
    rows(d.funnel, 'count')
  );
}
