import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import { domains } from './schema.ts';

export type DomainRow = typeof domains.$inferSelect;
export type DomainStatus = DomainRow['status'];

/** Persistence of registered origins (active, or pending the owner's approval). */
export function createDomainsStore(db: Db) {
  // Behind every widget call: a plain prepared statement (see the accounts store).
  const statusOf = db.$client.query<{ status: DomainStatus }, { accountId: string; origin: string }>(
    'SELECT status FROM domains WHERE account_id = $accountId AND origin = $origin',
  );

  return {
    status: (accountId: string, origin: string): DomainStatus | undefined =>
      statusOf.get({ accountId, origin })?.status,

    find: (accountId: string, origin: string): DomainRow | undefined =>
      db
        .select()
        .from(domains)
        .where(and(eq(domains.accountId, accountId), eq(domains.origin, origin)))
        .get(),

    list: (accountId: string): DomainRow[] =>
      db
        .select()
        .from(domains)
        .where(eq(domains.accountId, accountId))
        .orderBy(asc(domains.createdAt), asc(domains.origin))
        .all(),

    countPending: (accountId: string): number =>
      db
        .select({ n: sql<number>`count(*)` })
        .from(domains)
        .where(and(eq(domains.accountId, accountId), eq(domains.status, 'pending')))
        .get()?.n ?? 0,

    insert(row: DomainRow): void {
      db.insert(domains).values(row).run();
    },

    activate(accountId: string, origin: string): void {
      db.update(domains)
        .set({ status: 'active' })
        .where(and(eq(domains.accountId, accountId), eq(domains.origin, origin)))
        .run();
    },

    remove(accountId: string, origin: string): boolean {
      const removed = db
        .delete(domains)
        .where(and(eq(domains.accountId, accountId), eq(domains.origin, origin)))
        .returning({ origin: domains.origin })
        .all();
      return removed.length === 1;
    },

    /** Runs `work` in one transaction so check-then-write sequences cannot interleave. */
    transaction<T>(work: () => T): T {
      return db.transaction(() => work(), { behavior: 'immediate' });
    },
  };
}

export type DomainsStore = ReturnType<typeof createDomainsStore>;
