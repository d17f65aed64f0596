import type { DomainsStore } from '../db/domains-store.ts';
import type { PrunedRows, UsageStore } from '../db/usage-store.ts';
import { pendingCutoff } from '../domains/status.ts';
import type { Logger } from '../logger.ts';
import { DAY_MS, dayOf } from './counter.ts';

/** Per-day usage rows are kept this many days (a year's comparison plus a month). */
export const RETENTION_DAYS = 400;
const EVERY_MS = 3_600_000;

/**
 * Deletes per-day usage rows older than the retention window, and pending domain
 * requests that have expired (docs/api.md, "Owner limits"). Run from the server's
 * housekeeping timer, never from a request, and at most once an hour: the rows go a day
 * at a time, so pruning more often would find little.
 */
export function createRetention(deps: {
  store: Pick<UsageStore, 'pruneBefore'>;
  domains: Pick<DomainsStore, 'removeExpired'>;
  now: () => Date;
  logger: Logger;
}) {
  let lastRun = Number.NEGATIVE_INFINITY;
  return {
    /** Prunes when an hour has passed since the last prune; answers what went, or null. */
    async run(): Promise<({ before: string; pendingDomains: number } & PrunedRows) | null> {
      const at = deps.now();
      const now = at.getTime();
      if (now - lastRun < EVERY_MS) return null;
      lastRun = now;
      const before = dayOf(new Date(now - RETENTION_DAYS * DAY_MS));
      const rows = await deps.store.pruneBefore(before);
      const pendingDomains = await deps.domains.removeExpired(pendingCutoff(at));
      if (Object.values(rows).some((n) => n > 0))
        deps.logger.info('pruned per-day usage rows past retention', { before, ...rows });
      return { before, ...rows, pendingDomains };
    },
  };
}
