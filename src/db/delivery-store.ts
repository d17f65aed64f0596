import { and, desc, eq, getTableColumns, lt, or, sql } from 'drizzle-orm';
import type { Database } from 'bun:sqlite';
import type { NewEvent } from '../delivery/events.ts';
import type { Db } from './client.ts';
import { insertList, selectList } from './columns.ts';
import { deliveryAttempts, deliveryEvents, usageNotices } from './sqlite/schema.ts';
import { writeGateOf } from './write-gate.ts';

export type DeliveryEventRow = typeof deliveryEvents.$inferSelect;
type DeliveryAttemptRow = typeof deliveryAttempts.$inferSelect;

/** An attempt as the log lists it: the attempt's row with its event's type. */
export type LoggedAttempt = DeliveryAttemptRow & { type: string };

/** Where a page of the log starts: after this attempt (newest first). */
export interface LogCursor {
  at: string;
  eventId: string;
  attempt: number;
}

/** What a claim of due events takes: times in ms since the epoch. */
export interface ClaimRequest {
  now: number;
  /** The lease's end: past it, another server may attempt the event again. */
  leaseUntil: number;
  owner: string;
  limit: number;
  /** Accounts whose endpoint has all its share of attempts in flight here. */
  skipAccounts: readonly string[];
}

/** How an attempt ended, written with its log entry in one transaction. */
export interface FinishedAttempt {
  eventId: string;
  /** The lease the attempt was made under: a lease taken over since makes the write a no-op. */
  owner: string;
  leaseUntil: number;
  status: DeliveryEventRow['status'];
  nextAttemptAt: number;
  log: DeliveryAttemptRow;
}

/**
 * Queues an event, prepared once per database: run inside a write of the caller's (a
 * SQLite transaction on the same connection), the event exists exactly when that write
 * commits. Only for an account whose endpoint receives this type (`test` always): the list
 * is JSON text of known names, none holding a LIKE wildcard. True when it was queued.
 *
 *     const eventIn = preparedEventIn(db.$client);
 *     db.transaction((tx) => { tx.insert(results).values(row).run(); eventIn(event, now) })
 */
export function preparedEventIn(sqlite: Database): (event: NewEvent, now: number) => boolean {
  const insert = sqlite.query<
    unknown,
    { id: string; accountId: string; type: string; payload: string; now: number; createdAt: string; pattern: string }
  >(
    `INSERT INTO delivery_events (id, account_id, type, payload, status, attempts, next_attempt_at, created_at)
     SELECT $id, account_id, $type, $payload, 'pending', 0, $now, $createdAt
     FROM results_endpoints WHERE account_id = $accountId AND ($type = 'test' OR events LIKE $pattern)`,
  );
  return (event, now) =>
    insert.run({
      id: event.id,
      accountId: event.accountId,
      type: event.type,
      payload: event.payload,
      now,
      createdAt: event.createdAt,
      pattern: `%"${event.type}"%`,
    }).changes === 1;
}

/** What makes a usage event once only: its account, period (month or day) and kind. */
export type UsageNoticeKey = Pick<typeof usageNotices.$inferInsert, 'accountId' | 'period' | 'kind'>;

const EVENT_COLUMNS = selectList(deliveryEvents);

/** Persistence of the delivery queue and its log. */
export function createDeliveryStore(db: Db) {
  const gate = writeGateOf(db.$client);
  const eventIn = preparedEventIn(db.$client);
  // Due events of enabled endpoints, oldest due first, leased to one server. SQLite has one
  // writer per file (and one server per data directory), so the UPDATE alone is atomic.
  const claimDue = db.$client.query<
    DeliveryEventRow,
    { now: number; leaseUntil: number; owner: string; limit: number; skip: string }
  >(
    `UPDATE delivery_events SET lease_owner = $owner, lease_until = $leaseUntil
     WHERE id IN (
       SELECT e.id FROM delivery_events e JOIN results_endpoints r ON r.account_id = e.account_id
       WHERE e.status = 'pending' AND e.next_attempt_at <= $now
         AND (e.lease_until IS NULL OR e.lease_until <= $now)
         AND r.disabled_reason IS NULL
         AND e.account_id NOT IN (SELECT value FROM json_each($skip))
       ORDER BY e.next_attempt_at LIMIT $limit)
     RETURNING ${EVENT_COLUMNS}`,
  );
  // One endpoint's due events: a range of the (account, status, due time) index.
  const claimForAccount = db.$client.query<
    DeliveryEventRow,
    { accountId: string; now: number; leaseUntil: number; owner: string; limit: number }
  >(
    `UPDATE delivery_events SET lease_owner = $owner, lease_until = $leaseUntil
     WHERE id IN (
       SELECT e.id FROM delivery_events e JOIN results_endpoints r ON r.account_id = e.account_id
       WHERE e.account_id = $accountId AND e.status = 'pending' AND e.next_attempt_at <= $now
         AND (e.lease_until IS NULL OR e.lease_until <= $now)
         AND r.disabled_reason IS NULL
       ORDER BY e.next_attempt_at LIMIT $limit)
     RETURNING ${EVENT_COLUMNS}`,
  );
  const claimById = db.$client.query<DeliveryEventRow, { id: string; now: number; leaseUntil: number; owner: string }>(
    `UPDATE delivery_events SET lease_owner = $owner, lease_until = $leaseUntil
     WHERE id = $id AND status = 'pending' AND (lease_until IS NULL OR lease_until <= $now)
     RETURNING ${EVENT_COLUMNS}`,
  );
  const attemptColumns = getTableColumns(deliveryAttempts);
  // After every attempt: plain prepared statements in one bun:sqlite transaction (drizzle's
  // SQL built per call cost a fifth of a delivery on one core; docs/performance.md).
  const settle = db.$client.query<
    { id: string },
    { id: string; status: string; attempts: number; nextAttemptAt: number; owner: string; leaseUntil: number }
  >(
    `UPDATE delivery_events SET status = $status, attempts = $attempts, next_attempt_at = $nextAttemptAt,
       lease_owner = NULL, lease_until = NULL
     WHERE id = $id AND lease_owner = $owner AND lease_until = $leaseUntil RETURNING id`,
  );
  const logged = insertList(deliveryAttempts);
  const logAttempt = db.$client.query<unknown, DeliveryAttemptRow>(
    `INSERT INTO delivery_attempts (${logged.columns}) VALUES (${logged.values}) ON CONFLICT DO NOTHING`,
  );
  const finishIn = db.$client.transaction((done: FinishedAttempt): boolean => {
    const updated = settle.get({
      id: done.eventId,
      status: done.status,
      attempts: done.log.attempt,
      nextAttemptAt: done.nextAttemptAt,
      owner: done.owner,
      leaseUntil: done.leaseUntil,
    });
    if (!updated) return false;
    logAttempt.run(done.log);
    return true;
  });

  return {
    /** Queues an event that stands alone (a test, a usage warning). True when it was queued. */
    add: (event: NewEvent, now: number): Promise<boolean> => gate.write(() => eventIn(event, now)),

    /**
     * Queues a usage event unless one of its key was ever queued (or would have been, the
     * account then having no endpoint): the key and the event are written in one
     * transaction, so however many loads or servers race, one event goes out. True when
     * this call queued it.
     */
    addUsageEvent: (key: UsageNoticeKey, event: NewEvent, now: number): Promise<boolean> =>
      gate.write(() =>
        db.transaction((tx) => {
          const first = tx
            .insert(usageNotices)
            .values({ ...key, createdAt: event.createdAt })
            .onConflictDoNothing()
            .returning({ kind: usageNotices.kind })
            .all();
          return first.length === 1 && eventIn(event, now);
        }),
      ),

    /** Leases up to `limit` due events to `owner`. */
    claim: (request: ClaimRequest): Promise<DeliveryEventRow[]> =>
      gate.write(() =>
        claimDue.all({
          now: request.now,
          leaseUntil: request.leaseUntil,
          owner: request.owner,
          limit: request.limit,
          skip: JSON.stringify(request.skipAccounts),
        }),
      ),

    /** Leases up to `limit` due events of one account's endpoint to `owner`. */
    claimFor: (accountId: string, request: Omit<ClaimRequest, 'skipAccounts'>): Promise<DeliveryEventRow[]> =>
      gate.write(() =>
        claimForAccount.all({
          accountId,
          now: request.now,
          leaseUntil: request.leaseUntil,
          owner: request.owner,
          limit: request.limit,
        }),
      ),

    /** Leases one pending event now, whenever it is due, unless another attempt holds it. */
    claimOne: (
      id: string,
      request: Omit<ClaimRequest, 'limit' | 'skipAccounts'>,
    ): Promise<DeliveryEventRow | undefined> => gate.write(() => claimById.get({ id, ...request }) ?? undefined),

    /** Gives leased events back unattempted (claimed past an endpoint's share). */
    release: (ids: readonly string[], owner: string): Promise<void> =>
      gate.write(() => {
        db.update(deliveryEvents)
          .set({ leaseOwner: null, leaseUntil: null })
          .where(
            and(
              eq(deliveryEvents.leaseOwner, owner),
              sql`${deliveryEvents.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`,
            ),
          )
          .run();
      }),

    /**
     * Gives back every lease `owner` holds: at start, what this server had in flight when it
     * stopped (a crash) is due again at once instead of after its lease.
     */
    releaseOwner: (owner: string): Promise<number> =>
      gate.write(
        () =>
          db
            .update(deliveryEvents)
            .set({ leaseOwner: null, leaseUntil: null })
            .where(eq(deliveryEvents.leaseOwner, owner))
            .returning({ id: deliveryEvents.id })
            .all().length,
      ),

    /** Records an attempt and its event's new state, if the lease is still the attempt's. */
    finish: (done: FinishedAttempt): Promise<boolean> => gate.write(() => finishIn(done)),

    findEvent: async (accountId: string, id: string): Promise<DeliveryEventRow | undefined> =>
      db
        .select()
        .from(deliveryEvents)
        .where(and(eq(deliveryEvents.accountId, accountId), eq(deliveryEvents.id, id)))
        .get(),

    /** Makes an event due now again (the same id and body); false when the account has no such event. */
    resend: (accountId: string, id: string, now: number): Promise<boolean> =>
      gate.write(
        () =>
          db
            .update(deliveryEvents)
            .set({ status: 'pending', nextAttemptAt: now })
            .where(and(eq(deliveryEvents.accountId, accountId), eq(deliveryEvents.id, id)))
            .returning({ id: deliveryEvents.id })
            .all().length === 1,
      ),

    /** The log, newest first: one event's attempts, or the account's, after `cursor`. */
    attempts: async (
      accountId: string,
      options: { limit: number; cursor?: LogCursor; eventId?: string },
    ): Promise<LoggedAttempt[]> => {
      const { cursor } = options;
      return db
        .select({ ...attemptColumns, type: deliveryEvents.type })
        .from(deliveryAttempts)
        .innerJoin(deliveryEvents, eq(deliveryEvents.id, deliveryAttempts.eventId))
        .where(
          and(
            eq(deliveryAttempts.accountId, accountId),
            options.eventId === undefined ? undefined : eq(deliveryAttempts.eventId, options.eventId),
            cursor === undefined ? undefined : olderThan(cursor),
          ),
        )
        .orderBy(desc(deliveryAttempts.at), desc(deliveryAttempts.eventId), desc(deliveryAttempts.attempt))
        .limit(options.limit)
        .all();
    },

    /**
     * Deletes events (with their log) created before `createdBefore` (ISO-8601), and the
     * usage events' keys of months before that moment's (a month's keys last all month).
     */
    prune: (createdBefore: string): Promise<number> =>
      gate.write(() => {
        db.delete(usageNotices)
          .where(lt(usageNotices.period, createdBefore.slice(0, 7)))
          .run();
        return db
          .delete(deliveryEvents)
          .where(lt(deliveryEvents.createdAt, createdBefore))
          .returning({ id: deliveryEvents.id })
          .all().length;
      }),
  };
}

/** Attempts after `cursor` in the log's order (at, event, attempt; newest first). */
function olderThan(cursor: LogCursor) {
  const { at, eventId, attempt } = deliveryAttempts;
  return or(
    lt(at, cursor.at),
    and(eq(at, cursor.at), lt(eventId, cursor.eventId)),
    and(eq(at, cursor.at), eq(eventId, cursor.eventId), lt(attempt, cursor.attempt)),
  );
}

export type DeliveryStore = ReturnType<typeof createDeliveryStore>;
