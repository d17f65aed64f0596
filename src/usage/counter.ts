import type { UsageStore } from '../db/usage-store.ts';

/** "YYYY-MM" of a moment, in UTC: quotas run per calendar month. */
export function periodOf(date: Date): string {
  // Every widget load asks: two getters are cheaper than formatting the whole ISO string.
  const month = date.getUTCMonth() + 1;
  return `${date.getUTCFullYear()}-${month < 10 ? '0' : ''}${month}`;
}

interface Entry {
  stored: number;
  pending: number;
}

/**
 * Counts widget loads in memory and writes them in batches: a database write per load
 * would be the hot path's slowest step. `used()` always includes what is not yet on
 * disk, and `flush()` runs on a timer and on shutdown, so a clean stop loses nothing.
 */
export function createUsageCounter(store: UsageStore) {
  const entries = new Map<string, Entry>();

  function entry(accountId: string, period: string): Entry {
    const key = `${accountId}\u0000${period}`;
    let found = entries.get(key);
    if (!found) {
      found = { stored: store.loads(accountId, period), pending: 0 };
      entries.set(key, found);
    }
    return found;
  }

  return {
    used(accountId: string, period: string): number {
      const e = entry(accountId, period);
      return e.stored + e.pending;
    },

    /** Counts one load unless the limit is reached; check and count are one synchronous step. */
    tryCount(accountId: string, period: string, limit: number): boolean {
      const e = entry(accountId, period);
      if (e.stored + e.pending >= limit) return false;
      e.pending += 1;
      return true;
    },

    flush(): void {
      const deltas: { accountId: string; period: string; loads: number }[] = [];
      for (const [key, e] of entries) {
        if (e.pending === 0) continue;
        const [accountId = '', period = ''] = key.split('\u0000');
        deltas.push({ accountId, period, loads: e.pending });
      }
      if (deltas.length === 0) return;
      store.addAll(deltas);
      for (const e of entries.values()) {
        e.stored += e.pending;
        e.pending = 0;
      }
    },

    /** Forgets flushed totals of months other than `current`: they are never asked for again. */
    prune(current: string): void {
      for (const [key, e] of entries) {
        if (e.pending === 0 && !key.endsWith(`\u0000${current}`)) entries.delete(key);
      }
    },
  };
}

export type UsageCounter = ReturnType<typeof createUsageCounter>;
