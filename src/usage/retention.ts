import type { UsageStore } from '../db/usage-store.ts';
import type { Logger } from '../logger.ts';
import { DAY_MS, dayOf } from './counter.ts';

/** Per-day usage rows are kept this many days (a year's comparison plus a month). */
export const RETENTION_DAYS = 400;
const EVERY_MS = 3_600_000;

/**
 * Deletes per-day usage rows older than the retention window. Run from the server's
 * housekeeping timer, never from a request, and at most once an hour: the rows go a day
 * at a time, so pruning more often would find nothing.
 */
export function createRetention(deps: { store: Pick<UsageStore, 'pruneBefore'>; now: () => Date; logger: Logger }) {
  let lastRun = Number.NEGATIVE_INFINITY;
  return {
    /** Prunes when an hour has passed since the last prune; answers what went, or null. */
    async run(): Promise<{ before: string; loads: number; calls: number } | null> {
      const now = deps.now().getTime();
      if (now - lastRun < EVERY_MS) return null;
      lastRun = now;
      const before = dayOf(new Date(now - RETENTION_DAYS * DAY_MS));
      const pruned = { before, ...(await deps.store.pruneBefore(before)) };
      if (pruned.loads + pruned.calls > 0) deps.logger.info('pruned per-day usage rows past retention', pruned);
      return pruned;
    },
  };
}
