import { and, desc, eq, getTableColumns, inArray, lt, or, sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { NewEvent } from '../../delivery/events.ts';
import { selectList } from '../columns.ts';
import type { DeliveryEventRow, DeliveryStore, LogCursor } from '../delivery-store.ts';
import type { ResultsEndpointStore } from '../results-endpoint-store.ts';
import { type PgDb, rowsOf } from './client.ts';
import { deliveryAttempts, deliveryEvents, resultsEndpoints, usageNotices } from './schema.ts';

/**
 * The PostgreSQL side of the results endpoint and the delivery queue, typed by the SQLite
 * side's interfaces. Several servers share the queue: a claim locks the rows it leases and
 * skips rows another server is leasing at that moment (`FOR UPDATE SKIP LOCKED`).
 */

// biome-ignore lint/suspicious/noExplicitAny: any PostgreSQL drizzle database or transaction, whatever its schema
type AnyPgDatabase = PgDatabase<PgQueryResultHKT, any, any>;

/**
 * Queues an event inside a write of the caller's (drizzle's `tx` of a PostgreSQL
 * transaction), so that the event exists exactly when that write commits. True when it was
 * queued (the account has an endpoint that receives its type).
 *
 *     await db.transaction(async (tx) => { await tx.insert(results).values(row); await addPgEventIn(tx, event, now) })
 */
export async function addPgEventIn(tx: AnyPgDatabase, event: NewEvent, now: number): Promise<boolean> {
  const receives = event.type === 'test' ? sql`TRUE` : sql`events LIKE ${`%"${event.type}"%`}`;
  const inserted = await tx.execute(
    sql`INSERT INTO delivery_events (id, account_id, type, payload, status, attempts, next_attempt_at, created_at)
      SELECT ${event.id}::text, account_id, ${event.type}::text, ${event.payload}::text, 'pending', 0, ${now}::bigint, ${event.createdAt}::text
      FROM results_endpoints WHERE account_id = ${event.accountId} AND ${receives}
      RETURNING id`,
  );
  return rowsOf(inserted).length === 1;
}

export function createPgResultsEndpointStore(db: PgDb): ResultsEndpointStore {
  const ids = { id: resultsEndpoints.accountId };
  return {
    find: async (accountId) =>
      (await db.select().from(resultsEndpoints).where(eq(resultsEndpoints.accountId, accountId)))[0],
    insert: async (row) =>
      (await db.insert(resultsEndpoints).values(row).onConflictDoNothing().returning(ids)).length === 1,
    update: async (accountId, change) =>
      (await db.update(resultsEndpoints).set(change).where(eq(resultsEndpoints.accountId, accountId)).returning(ids))
        .length === 1,
    rotate: async (accountId, change, expectedSecret) =>
      (
        await db
          .update(resultsEndpoints)
          .set(change)
          .where(and(eq(resultsEndpoints.accountId, accountId), eq(resultsEndpoints.secret, expectedSecret)))
          .returning(ids)
      ).length === 1,
    remove: async (accountId) =>
      (await db.delete(resultsEndpoints).where(eq(resultsEndpoints.accountId, accountId)).returning(ids)).length === 1,
    recordSuccess: async (accountId) => {
      await db
        .update(resultsEndpoints)
        .set({ failingSince: null })
        .where(and(eq(resultsEndpoints.accountId, accountId), sql`${resultsEndpoints.failingSince} IS NOT NULL`));
    },
    recordFailure: async (accountId, at, disableFrom, reason) => {
      const since = sql`coalesce(${resultsEndpoints.failingSince}, ${at}::text)`;
      const disables = sql`${resultsEndpoints.disabledReason} IS NULL AND ${since} <= ${disableFrom}::text`;
      const [row] = await db
        .update(resultsEndpoints)
        .set({
          failingSince: since,
          disabledReason: sql`CASE WHEN ${disables} THEN ${reason}::text ELSE ${resultsEndpoints.disabledReason} END`,
        })
        .where(eq(resultsEndpoints.accountId, accountId))
        .returning({ disabledReason: resultsEndpoints.disabledReason });
      return row !== undefined && row.disabledReason !== null;
    },
    disable: async (accountId, reason) => {
      await db
        .update(resultsEndpoints)
        .set({ disabledReason: reason })
        .where(eq(resultsEndpoints.accountId, accountId));
    },
  };
}

const EVENT_COLUMNS = selectList(deliveryEvents);

/** The columns Bun's client answers as strings (int8), where drizzle's rows hold numbers. */
function eventOf(raw: Record<string, unknown>): DeliveryEventRow {
  raw.nextAttemptAt = Number(raw.nextAttemptAt);
  if (raw.leaseUntil !== null) raw.leaseUntil = Number(raw.leaseUntil);
  return raw as DeliveryEventRow;
}

export function createPgDeliveryStore(db: PgDb): DeliveryStore {
  const client = db.$client;
  const claimDue = `UPDATE delivery_events SET lease_owner = $3, lease_until = $2
    WHERE id IN (
      SELECT e.id FROM delivery_events e JOIN results_endpoints r ON r.account_id = e.account_id
      WHERE e.status = 'pending' AND e.next_attempt_at <= $1
        AND (e.lease_until IS NULL OR e.lease_until <= $1)
        AND r.disabled_reason IS NULL
        AND e.account_id <> ALL($5::text[])
      ORDER BY e.next_attempt_at LIMIT $4
      FOR UPDATE OF e SKIP LOCKED)
    RETURNING ${EVENT_COLUMNS}`;
  const claimForAccount = `UPDATE delivery_events SET lease_owner = $4, lease_until = $3
    WHERE id IN (
      SELECT e.id FROM delivery_events e JOIN results_endpoints r ON r.account_id = e.account_id
      WHERE e.account_id = $1 AND e.status = 'pending' AND e.next_attempt_at <= $2
        AND (e.lease_until IS NULL OR e.lease_until <= $2)
        AND r.disabled_reason IS NULL
      ORDER BY e.next_attempt_at LIMIT $5
      FOR UPDATE OF e SKIP LOCKED)
    RETURNING ${EVENT_COLUMNS}`;
  const claimById = `UPDATE delivery_events SET lease_owner = $4, lease_until = $3
    WHERE id = (SELECT id FROM delivery_events WHERE id = $1 AND status = 'pending'
      AND (lease_until IS NULL OR lease_until <= $2) FOR UPDATE SKIP LOCKED)
    RETURNING ${EVENT_COLUMNS}`;
  const attemptColumns = getTableColumns(deliveryAttempts);
  const ids = { id: deliveryEvents.id };

  return {
    add: async (event, now) => addPgEventIn(db, event, now),
    // Two servers inserting one key: the second waits for the first's commit, then inserts nothing.
    addUsageEvent: async (key, event, now) =>
      db.transaction(async (tx) => {
        const first = await tx
          .insert(usageNotices)
          .values({ ...key, createdAt: event.createdAt })
          .onConflictDoNothing()
          .returning({ kind: usageNotices.kind });
        return first.length === 1 && (await addPgEventIn(tx, event, now));
      }),
    claim: async (request) =>
      (
        (await client.unsafe(claimDue, [
          request.now,
          request.leaseUntil,
          request.owner,
          request.limit,
          [...request.skipAccounts],
        ])) as Record<string, unknown>[]
      ).map(eventOf),
    claimFor: async (accountId, request) =>
      (
        (await client.unsafe(claimForAccount, [
          accountId,
          request.now,
          request.leaseUntil,
          request.owner,
          request.limit,
        ])) as Record<string, unknown>[]
      ).map(eventOf),
    claimOne: async (id, request) => {
      const [raw] = (await client.unsafe(claimById, [id, request.now, request.leaseUntil, request.owner])) as Record<
        string,
        unknown
      >[];
      return raw ? eventOf(raw) : undefined;
    },
    release: async (eventIds, owner) => {
      if (eventIds.length === 0) return;
      await db
        .update(deliveryEvents)
        .set({ leaseOwner: null, leaseUntil: null })
        .where(and(eq(deliveryEvents.leaseOwner, owner), inArray(deliveryEvents.id, [...eventIds])));
    },
    releaseOwner: async (owner) =>
      (
        await db
          .update(deliveryEvents)
          .set({ leaseOwner: null, leaseUntil: null })
          .where(eq(deliveryEvents.leaseOwner, owner))
          .returning(ids)
      ).length,
    finish: async (done) =>
      db.transaction(async (tx) => {
        const updated = await tx
          .update(deliveryEvents)
          .set({
            status: done.status,
            attempts: done.log.attempt,
            nextAttemptAt: done.nextAttemptAt,
            leaseOwner: null,
            leaseUntil: null,
          })
          .where(
            and(
              eq(deliveryEvents.id, done.eventId),
              eq(deliveryEvents.leaseOwner, done.owner),
              eq(deliveryEvents.leaseUntil, done.leaseUntil),
            ),
          )
          .returning(ids);
        if (updated.length !== 1) return false;
        await tx.insert(deliveryAttempts).values(done.log).onConflictDoNothing();
        return true;
      }),
    findEvent: async (accountId, id) =>
      (
        await db
          .select()
          .from(deliveryEvents)
          .where(and(eq(deliveryEvents.accountId, accountId), eq(deliveryEvents.id, id)))
      )[0],
    resend: async (accountId, id, now) =>
      (
        await db
          .update(deliveryEvents)
          .set({ status: 'pending', nextAttemptAt: now })
          .where(and(eq(deliveryEvents.accountId, accountId), eq(deliveryEvents.id, id)))
          .returning(ids)
      ).length === 1,
    attempts: async (accountId, options) =>
      db
        .select({ ...attemptColumns, type: deliveryEvents.type })
        .from(deliveryAttempts)
        .innerJoin(deliveryEvents, eq(deliveryEvents.id, deliveryAttempts.eventId))
        .where(
          and(
            eq(deliveryAttempts.accountId, accountId),
            options.eventId === undefined ? undefined : eq(deliveryAttempts.eventId, options.eventId),
            options.cursor === undefined ? undefined : olderThan(options.cursor),
          ),
        )
        .orderBy(desc(deliveryAttempts.at), desc(deliveryAttempts.eventId), desc(deliveryAttempts.attempt))
        .limit(options.limit),
    prune: async (createdBefore) => {
      await db.delete(usageNotices).where(lt(usageNotices.period, createdBefore.slice(0, 7)));
      return (await db.delete(deliveryEvents).where(lt(deliveryEvents.createdAt, createdBefore)).returning(ids)).length;
    },
  };
}

function olderThan(cursor: LogCursor) {
  const { at, eventId, attempt } = deliveryAttempts;
  return or(
    lt(at, cursor.at),
    and(eq(at, cursor.at), lt(eventId, cursor.eventId)),
    and(eq(at, cursor.at), eq(eventId, cursor.eventId), lt(attempt, cursor.attempt)),
  );
}
