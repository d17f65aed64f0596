import { and, eq, sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import { resultsEndpoints } from './sqlite/schema.ts';
import { writeGateOf } from './write-gate.ts';

export type ResultsEndpointRow = typeof resultsEndpoints.$inferSelect;

/** What saving the endpoint again changes: where it points, what it receives, whether it is on. */
export type EndpointChange = Pick<
  ResultsEndpointRow,
  'url' | 'events' | 'disabledReason' | 'failingSince' | 'updatedAt'
>;

/** A rotation's new secrets. */
export type SecretChange = Pick<ResultsEndpointRow, 'secret' | 'previousSecret' | 'previousValidUntil' | 'updatedAt'>;

/** Persistence of each account's results endpoint (one row per account). */
export function createResultsEndpointStore(db: Db) {
  const gate = writeGateOf(db.$client);
  const byAccount = db
    .select()
    .from(resultsEndpoints)
    .where(eq(resultsEndpoints.accountId, sql.placeholder('accountId')))
    .prepare();

  return {
    find: async (accountId: string): Promise<ResultsEndpointRow | undefined> => byAccount.get({ accountId }),

    /** Creates the endpoint; false when the account has one already. */
    insert: (row: ResultsEndpointRow): Promise<boolean> =>
      gate.write(
        () =>
          db
            .insert(resultsEndpoints)
            .values(row)
            .onConflictDoNothing()
            .returning({ id: resultsEndpoints.accountId })
            .all().length === 1,
      ),

    /** Saves the endpoint again (its secret stays); false when there is none. */
    update: (accountId: string, change: EndpointChange): Promise<boolean> =>
      gate.write(
        () =>
          db
            .update(resultsEndpoints)
            .set(change)
            .where(eq(resultsEndpoints.accountId, accountId))
            .returning({ id: resultsEndpoints.accountId })
            .all().length === 1,
      ),

    /** Replaces the secret when it is still `expectedSecret` (of two rotations at once, one wins). */
    rotate: (accountId: string, change: SecretChange, expectedSecret: string): Promise<boolean> =>
      gate.write(
        () =>
          db
            .update(resultsEndpoints)
            .set(change)
            .where(and(eq(resultsEndpoints.accountId, accountId), eq(resultsEndpoints.secret, expectedSecret)))
            .returning({ id: resultsEndpoints.accountId })
            .all().length === 1,
      ),

    /** Deletes the endpoint with its queued events and their delivery log; false when there was none. */
    remove: (accountId: string): Promise<boolean> =>
      gate.write(
        () =>
          db
            .delete(resultsEndpoints)
            .where(eq(resultsEndpoints.accountId, accountId))
            .returning({ id: resultsEndpoints.accountId })
            .all().length === 1,
      ),

    /** A delivery succeeded: the run of failures ends. */
    recordSuccess: (accountId: string): Promise<void> =>
      gate.write(() => {
        db.update(resultsEndpoints)
          .set({ failingSince: null })
          .where(and(eq(resultsEndpoints.accountId, accountId), sql`${resultsEndpoints.failingSince} IS NOT NULL`))
          .run();
      }),

    /**
     * A delivery failed at `at`: the run of failures starts there unless it had started, and
     * the endpoint is disabled with `reason` when the run started at or before `disableFrom`.
     * True when this failure disabled it.
     */
    recordFailure: (accountId: string, at: string, disableFrom: string, reason: string): Promise<boolean> =>
      gate.write(() => {
        const since = sql`coalesce(${resultsEndpoints.failingSince}, ${at})`;
        const disables = sql`${resultsEndpoints.disabledReason} IS NULL AND ${since} <= ${disableFrom}`;
        const [row] = db
          .update(resultsEndpoints)
          .set({
            failingSince: since,
            disabledReason: sql`CASE WHEN ${disables} THEN ${reason} ELSE ${resultsEndpoints.disabledReason} END`,
          })
          .where(eq(resultsEndpoints.accountId, accountId))
          .returning({ disabledReason: resultsEndpoints.disabledReason })
          .all();
        return row !== undefined && row.disabledReason !== null;
      }),

    /** Stops deliveries until the owner saves the endpoint again (a 410, say). */
    disable: (accountId: string, reason: string): Promise<void> =>
      gate.write(() => {
        db.update(resultsEndpoints)
          .set({ disabledReason: reason })
          .where(eq(resultsEndpoints.accountId, accountId))
          .run();
      }),
  };
}

export type ResultsEndpointStore = ReturnType<typeof createResultsEndpointStore>;
