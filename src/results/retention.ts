import type { ResultsStore } from '../db/results-store.ts';
import type { Logger } from '../logger.ts';
import { DAY_MS, periodOf } from '../usage/counter.ts';

const EVERY_MS = 3_600_000;

/**
 * Deletes results older than the retention (`--results-retention-days`, docs/results.md,
 * "How long results are kept") with their queued events, and the monthly submission counts
 * of months before the last. Run from the server's housekeeping timer, at most once an hour.
 */
export function createResultsRetention(deps: {
  store: Pick<ResultsStore, 'prune'>;
  days: number;
  now: () => Date;
  logger: Logger;
}) {
  let lastRun = Number.NEGATIVE_INFINITY;
  return {
    /** Prunes when an hour has passed since the last prune; answers how many results went, or null. */
    async run(): Promise<{ before: string; results: number } | null> {
      const now = deps.now().getTime();
      if (now - lastRun < EVERY_MS) return null;
      lastRun = now;
      const before = new Date(now - deps.days * DAY_MS).toISOString();
      // The current month's count and the last one's stay (the allowance and its report read them).
      const month = new Date(now);
      const lastMonth = periodOf(new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() - 1, 1)));
      const results = await deps.store.prune(before, lastMonth);
      if (results > 0) deps.logger.info('deleted results past their retention', { before, results });
      return { before, results };
    },
  };
}
