import { type AnyColumn, and, desc, eq, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { NewEvent } from '../delivery/events.ts';
import type { Db } from './client.ts';
import { insertList } from './columns.ts';
import { preparedEventIn } from './delivery-store.ts';
import { deliveryEvents, results, resultsMonthly } from './sqlite/schema.ts';
import { writeGateOf } from './write-gate.ts';

/** A stored result: its JSON columns as text (docs/results.md, "What is stored"). */
export type ResultRow = typeof results.$inferSelect;

/** Which results a list or an export covers; times are ISO-8601 (UTC) bounds, emails compared case-blind. */
export interface ResultsFilter {
  /** From this moment (inclusive). */
  from?: string;
  /** Before this moment. */
  before?: string;
  calcId?: string;
  domain?: string;
  email?: string;
  visitor?: string;
}

/** Where a page of results starts: after this one, newest first. */
export interface ResultsCursor {
  createdAt: string;
  id: string;
}

/** The month's allowance a submission counts against. */
export interface Allowance {
  /** "YYYY-MM" (UTC). */
  period: string;
  limit: number;
}

/** How a submission ended: stored (with its event queued or not), or refused by the month's allowance. */
export type SubmitOutcome = { stored: true; eventQueued: boolean } | { stored: false };

/** An input or output key that results of a calculator hold (the export's columns). */
export interface ResultKey {
  calcId: string;
  kind: 'input' | 'output';
  key: string;
}

/** The columns the filter reads, of either dialect's `results` table. */
interface FilterColumns {
  accountId: AnyColumn;
  createdAt: AnyColumn;
  id: AnyColumn;
  calcId: AnyColumn;
  domain: AnyColumn;
  contactEmail: AnyColumn;
  visitor: AnyColumn;
}

/** The WHERE of a list or export page, in either dialect: the account, the filter, after the cursor. */
export function resultsWhere(
  t: FilterColumns,
  accountId: string,
  filter: ResultsFilter,
  cursor?: ResultsCursor,
): SQL | undefined {
  return and(
    eq(t.accountId, accountId),
    filter.from === undefined ? undefined : gte(t.createdAt, filter.from),
    filter.before === undefined ? undefined : lt(t.createdAt, filter.before),
    filter.calcId === undefined ? undefined : eq(t.calcId, filter.calcId),
    filter.domain === undefined ? undefined : eq(t.domain, filter.domain),
    filter.email === undefined ? undefined : sql`lower(${t.contactEmail}) = ${filter.email.toLowerCase()}`,
    filter.visitor === undefined ? undefined : eq(t.visitor, filter.visitor),
    // A row value: both dialects walk the (account, created_at, id) index from the cursor.
    cursor === undefined ? undefined : sql`(${t.createdAt}, ${t.id}) < (${cursor.createdAt}, ${cursor.id})`,
  );
}

/** Newest first, the id breaking ties: the order lists, exports and cursors share. */
export const newestFirst = (t: FilterColumns) => [desc(t.createdAt), desc(t.id)];

/** Results pruned per transaction: a large prune never holds the writer for long. */
export const PRUNE_BATCH = 2000;

/**
 * Persistence of visitors' results and the monthly count of submissions. A submission is
 * one transaction: the allowance's count, the row and its `result.submitted` event (when
 * the account's endpoint receives it), so that a crash after the commit loses none of them
 * and a refusal writes none of them.
 */
export function createResultsStore(db: Db) {
  const gate = writeGateOf(db.$client);
  // The month's count goes up only while under the limit: check and count are one statement.
  const countSubmission = db.$client.query<
    { submissions: number },
    { accountId: string; period: string; limit: number }
  >(
    `INSERT INTO results_monthly (account_id, period, submissions) VALUES ($accountId, $period, 1)
     ON CONFLICT (account_id, period) DO UPDATE SET submissions = submissions + 1 WHERE submissions < $limit
     RETURNING submissions`,
  );
  // Every submission: plain prepared statements in one bun:sqlite transaction (building
  // drizzle's SQL per call cost a third of a submission).
  const eventIn = preparedEventIn(db.$client);
  const columns = insertList(results);
  const insertResult = db.$client.query<unknown, ResultRow>(
    `INSERT INTO results (${columns.columns}) VALUES (${columns.values})`,
  );
  const submitIn = db.$client.transaction(
    (row: ResultRow, event: NewEvent | null, allowance: Allowance, now: number): SubmitOutcome => {
      const counted = countSubmission.get({
        accountId: row.accountId,
        period: allowance.period,
        limit: allowance.limit,
      });
      if (!counted) return { stored: false };
      const eventQueued = event !== null && eventIn(event, now);
      insertResult.run({ ...row, eventId: eventQueued ? (event?.id ?? null) : null });
      return { stored: true, eventQueued };
    },
  );
  const keysOf = (column: 'inputs' | 'outputs', kind: ResultKey['kind'], where: SQL | undefined) =>
    sql`SELECT DISTINCT ${results.calcId} AS calcId, ${kind} AS kind, j.key AS key
        FROM ${results}, json_each(${sql.identifier(column)}) j WHERE ${where}`;

  return {
    /** Stores a submission within the month's allowance, with its event (when the endpoint takes it), atomically. */
    submit: (row: ResultRow, event: NewEvent | null, allowance: Allowance, now: number): Promise<SubmitOutcome> =>
      allowance.limit <= 0
        ? Promise.resolve({ stored: false })
        : gate.write(() => submitIn(row, event, allowance, now)),

    /** A page of results, newest first. */
    list: async (
      accountId: string,
      filter: ResultsFilter,
      limit: number,
      cursor?: ResultsCursor,
    ): Promise<ResultRow[]> =>
      db
        .select()
        .from(results)
        .where(resultsWhere(results, accountId, filter, cursor))
        .orderBy(...newestFirst(results))
        .limit(limit)
        .all(),

    find: async (accountId: string, id: string): Promise<ResultRow | undefined> =>
      db
        .select()
        .from(results)
        .where(and(eq(results.accountId, accountId), eq(results.id, id)))
        .get(),

    /**
     * Deletes a result and its queued event (with the event's delivery log); false when
     * there was none. The write-ahead log holds the pages as they were until a checkpoint,
     * so one runs now and empties it: with `secure_delete`, nothing of the visitor stays in
     * either file (docs/results.md, "Deleting").
     */
    remove: (accountId: string, id: string): Promise<boolean> =>
      gate.write(() => {
        const removed = db.transaction((tx) => {
          const [gone] = tx
            .delete(results)
            .where(and(eq(results.accountId, accountId), eq(results.id, id)))
            .returning({ eventId: results.eventId })
            .all();
          if (!gone) return false;
          if (gone.eventId !== null) tx.delete(deliveryEvents).where(eq(deliveryEvents.id, gone.eventId)).run();
          return true;
        });
        if (removed) db.$client.run('PRAGMA wal_checkpoint(TRUNCATE)');
        return removed;
      }),

    /** The input and output keys the filtered results hold, per calculator (read in the database, not in memory). */
    keys: async (accountId: string, filter: ResultsFilter): Promise<ResultKey[]> => {
      const where = resultsWhere(results, accountId, filter);
      return db.all<ResultKey>(sql`${keysOf('inputs', 'input', where)} UNION ${keysOf('outputs', 'output', where)}`);
    },

    /** Submissions accepted in a month (the allowance's count). */
    submissions: async (accountId: string, period: string): Promise<number> =>
      db
        .select({ n: resultsMonthly.submissions })
        .from(resultsMonthly)
        .where(and(eq(resultsMonthly.accountId, accountId), eq(resultsMonthly.period, period)))
        .get()?.n ?? 0,

    /**
     * Deletes results created before `before` (ISO-8601) with their queued events, a batch
     * per transaction, and the monthly counts of months before `beforePeriod`. Answers how
     * many results went.
     */
    prune: async (before: string, beforePeriod: string): Promise<number> => {
      let pruned = 0;
      for (;;) {
        const batch = await gate.write(() =>
          db.transaction((tx) => {
            const ids = tx
              .select({ id: results.id })
              .from(results)
              .where(lt(results.createdAt, before))
              .limit(PRUNE_BATCH)
              .all()
              .map((r) => r.id);
            if (ids.length === 0) return 0;
            const events = tx.select({ id: results.eventId }).from(results).where(inArray(results.id, ids));
            tx.delete(deliveryEvents).where(inArray(deliveryEvents.id, events)).run();
            tx.delete(results).where(inArray(results.id, ids)).run();
            return ids.length;
          }),
        );
        pruned += batch;
        if (batch < PRUNE_BATCH) break;
      }
      await gate.write(() => {
        db.delete(resultsMonthly).where(lt(resultsMonthly.period, beforePeriod)).run();
        // As for a deletion: the pruned rows leave the write-ahead log too.
        if (pruned > 0) db.$client.run('PRAGMA wal_checkpoint(TRUNCATE)');
      });
      return pruned;
    },
  };
}

export type ResultsStore = ReturnType<typeof createResultsStore>;
