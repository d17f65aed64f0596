import { and, eq, sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import { usage } from './schema.ts';

/** Persistence of monthly load counts; the in-memory counter in front of it batches writes. */
export function createUsageStore(db: Db) {
  const loadsOf = db
    .select({ loads: usage.loads })
    .from(usage)
    .where(and(eq(usage.accountId, sql.placeholder('accountId')), eq(usage.period, sql.placeholder('period'))))
    .prepare();

  return {
    loads: (accountId: string, period: string): number => loadsOf.get({ accountId, period })?.loads ?? 0,

    /** Adds every pending delta in one transaction. */
    addAll(deltas: { accountId: string; period: string; loads: number }[]): void {
      if (deltas.length === 0) return;
      db.transaction((tx) => {
        for (const delta of deltas) {
          tx.insert(usage)
            .values(delta)
            .onConflictDoUpdate({
              target: [usage.accountId, usage.period],
              set: { loads: sql`${usage.loads} + ${delta.loads}` },
            })
            .run();
        }
      });
    },
  };
}

export type UsageStore = ReturnType<typeof createUsageStore>;
