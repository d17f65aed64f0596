import { and, asc, eq, gt, lte, sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import { domains } from './sqlite/schema.ts';
import { insideTransaction, type WriteGate, writeGateOf } from './write-gate.ts';

export type DomainRow = typeof domains.$inferSelect;
export type DomainStatus = DomainRow['status'];

/** Persistence of registered origins (active, or pending the owner's approval). */
export function createDomainsStore(db: Db) {
  const gate = writeGateOf(db.$client);
  // Behind every widget call: a plain prepared statement (see the accounts store).
  const statusOf = db.$client.query<{ status: DomainStatus }, { accountId: string; origin: string }>(
    'SELECT status FROM domains WHERE account_id = $accountId AND origin = $origin',
  );

  function operations(writes: Pick<WriteGate, 'write'>) {
    return {
      status: async (accountId: string, origin: string): Promise<DomainStatus | undefined> =>
        statusOf.get({ accountId, origin })?.status,

      find: async (accountId: string, origin: string): Promise<DomainRow | undefined> =>
        db
          .select()
          .from(domains)
          .where(and(eq(domains.accountId, accountId), eq(domains.origin, origin)))
          .get(),

      list: async (accountId: string): Promise<DomainRow[]> =>
        db
          .select()
          .from(domains)
          .where(eq(domains.accountId, accountId))
          .orderBy(asc(domains.createdAt), asc(domains.origin))
          .all(),

      /** Pending requests made after `expiredAt` (ISO-8601): older ones have expired. */
      countPending: async (accountId: string, expiredAt: string): Promise<number> =>
        db
          .select({ n: sql<number>`count(*)` })
          .from(domains)
          .where(and(eq(domains.accountId, accountId), eq(domains.status, 'pending'), gt(domains.createdAt, expiredAt)))
          .get()?.n ?? 0,

      insert: (row: DomainRow): Promise<void> =>
        writes.write(() => {
          db.insert(domains).values(row).run();
        }),

      activate: (accountId: string, origin: string): Promise<void> =>
        writes.write(() => {
          db.update(domains)
            .set({ status: 'active' })
            .where(and(eq(domains.accountId, accountId), eq(domains.origin, origin)))
            .run();
        }),

      remove: (accountId: string, origin: string): Promise<boolean> =>
        writes.write(
          () =>
            db
              .delete(domains)
              .where(and(eq(domains.accountId, accountId), eq(domains.origin, origin)))
              .returning({ origin: domains.origin })
              .all().length === 1,
        ),
    };
  }

  const inTransaction = operations(insideTransaction);
  return {
    ...operations(gate),
    /** Deletes every account's pending requests made at or before `expiredAt`; answers how many went. */
    removeExpired: (expiredAt: string): Promise<number> =>
      gate.write(
        () =>
          db
            .delete(domains)
            .where(and(eq(domains.status, 'pending'), lte(domains.createdAt, expiredAt)))
            .returning({ origin: domains.origin })
            .all().length,
      ),
    /**
     * Runs `work` in one transaction so check-then-write sequences cannot interleave;
     * `work` must use the store it is given, which belongs to the transaction.
     */
    transaction: <T>(work: (store: typeof inTransaction) => Promise<T>): Promise<T> =>
      gate.transaction(() => work(inTransaction)),
  };
}

export type DomainsStore = ReturnType<typeof createDomainsStore>;
