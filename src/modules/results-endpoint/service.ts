import { decodeCursor, encodeCursor, pageOf } from '../../http/cursor.ts';
import type { AccountRow } from '../../db/accounts-store.ts';
import type { DeliveryStore, LogCursor, LoggedAttempt } from '../../db/delivery-store.ts';
import type { ResultsEndpointRow, ResultsEndpointStore } from '../../db/results-endpoint-store.ts';
import {
  inOverlap,
  openEndpointSecret,
  SECRET_OVERLAP_MS,
  sealEndpointSecret,
} from '../../delivery/endpoint-secrets.ts';
import { EVENT_TYPES, newEvent, type ChoosableEventType } from '../../delivery/events.ts';
import type { AttemptRecord, DeliveryWorker } from '../../delivery/worker.ts';
import { AppError } from '../../errors.ts';
import { hasResults, resultsPlanRequired } from '../../plans.ts';
import type { HeaderCipher } from '../../security/header-cipher.ts';
import { lastFour, newEndpointSecret } from '../../security/standard-webhooks.ts';
import type { AddressPolicy } from '../../webhook/address-policy.ts';
import { urlRefusal } from '../../webhook/save-check.ts';
import type { Resolver } from '../../webhook/url-check.ts';
import type { DeliveryJson, EndpointInput, EndpointJson } from './model.ts';

export interface EndpointDeps {
  endpoints: ResultsEndpointStore;
  deliveries: DeliveryStore;
  worker: DeliveryWorker;
  cipher: HeaderCipher;
  resolve: Resolver;
  policy: AddressPolicy;
  now: () => Date;
}

/** Why an owner turned the endpoint off (`enabled: false`). */
const PAUSED = 'Turned off by the owner.';

function requirePlan(account: AccountRow): void {
  if (!hasResults(account.plan)) throw new AppError('plan_required', resultsPlanRequired(account));
}

async function requireEndpoint(deps: EndpointDeps, accountId: string): Promise<ResultsEndpointRow> {
  const row = await deps.endpoints.find(accountId);
  if (!row)
    throw new AppError(
      'endpoint_not_found',
      'This account has no results endpoint. Set one with PUT /v1/account/results-endpoint.',
    );
  return row;
}

function requireEnabled(row: ResultsEndpointRow): void {
  if (row.disabledReason !== null)
    throw new AppError(
      'endpoint_disabled',
      `The results endpoint is disabled: ${row.disabledReason} Save it again (PUT /v1/account/results-endpoint) to turn it on.`,
    );
}

function eventsOf(row: ResultsEndpointRow): ChoosableEventType[] {
  const stored: unknown = JSON.parse(row.events);
  return EVENT_TYPES.filter((type) => Array.isArray(stored) && stored.includes(type));
}

/** The endpoint as owners see it: never the secret, only its last four characters. */
function toJson(deps: EndpointDeps, row: ResultsEndpointRow): EndpointJson {
  const json: EndpointJson = {
    url: row.url,
    events: eventsOf(row),
    enabled: row.disabledReason === null,
    secretLast4: lastFour(openEndpointSecret(deps.cipher, row.accountId, row.secret)),
    createdAt: row.createdAt,
  };
  if (row.disabledReason !== null) json.disabledReason = row.disabledReason;
  if (row.failingSince !== null) json.failingSince = row.failingSince;
  if (inOverlap(row, deps.now()) && row.previousValidUntil !== null)
    json.previousSecretValidUntil = row.previousValidUntil;
  return json;
}

export async function readEndpoint(deps: EndpointDeps, accountId: string): Promise<{ endpoint: EndpointJson | null }> {
  const row = await deps.endpoints.find(accountId);
  return { endpoint: row ? toJson(deps, row) : null };
}

/**
 * Creates or saves the endpoint, in the documented order: plan (403) → URL (422). Creating
 * it makes its secret, answered this once. Saving it again keeps the secret and turns a
 * disabled endpoint on (unless `enabled: false`): its queued events resume.
 */
export async function saveEndpoint(
  deps: EndpointDeps,
  account: AccountRow,
  input: EndpointInput,
): Promise<{ created: boolean; endpoint: EndpointJson; secret?: string }> {
  requirePlan(account);
  const refused = await urlRefusal(input.url, deps);
  if (refused !== null) throw new AppError('invalid_webhook_url', `url is refused: ${refused}`);
  const now = deps.now().toISOString();
  const existing = await deps.endpoints.find(account.id);
  const disabledReason = input.enabled === false ? (existing?.disabledReason ?? PAUSED) : null;
  if (existing) {
    const events = input.events ?? eventsOf(existing);
    await deps.endpoints.update(account.id, {
      url: input.url,
      events: JSON.stringify(events),
      disabledReason,
      // Turned on again: the five days of failures start over.
      failingSince: disabledReason === null && existing.disabledReason !== null ? null : existing.failingSince,
      updatedAt: now,
    });
    if (disabledReason === null) deps.worker.wake();
    return { created: false, endpoint: toJson(deps, await requireEndpoint(deps, account.id)) };
  }
  const secret = newEndpointSecret();
  const inserted = await deps.endpoints.insert({
    accountId: account.id,
    url: input.url,
    events: JSON.stringify(input.events ?? [...EVENT_TYPES]),
    secret: sealEndpointSecret(deps.cipher, account.id, secret),
    previousSecret: null,
    previousValidUntil: null,
    disabledReason,
    failingSince: null,
    createdAt: now,
    updatedAt: now,
  });
  // Created by a request at the same moment: that one's secret was answered; save over it.
  if (!inserted) return saveEndpoint(deps, account, input);
  return { created: true, endpoint: toJson(deps, await requireEndpoint(deps, account.id)), secret };
}

/** Deletes the endpoint with its queued events and their log. */
export async function removeEndpoint(deps: EndpointDeps, accountId: string): Promise<{ deleted: true }> {
  if (!(await deps.endpoints.remove(accountId))) await requireEndpoint(deps, accountId);
  return { deleted: true };
}

/** A new secret, answered once; the current one keeps signing for 24 hours beside it. */
export async function rotateSecret(
  deps: EndpointDeps,
  account: AccountRow,
): Promise<{ secret: string; previousValidUntil: string }> {
  requirePlan(account);
  for (;;) {
    const current = await requireEndpoint(deps, account.id);
    const now = deps.now();
    const secret = newEndpointSecret();
    const previousValidUntil = new Date(now.getTime() + SECRET_OVERLAP_MS).toISOString();
    const rotated = await deps.endpoints.rotate(
      account.id,
      {
        secret: sealEndpointSecret(deps.cipher, account.id, secret),
        previousSecret: current.secret,
        previousValidUntil,
        updatedAt: now.toISOString(),
      },
      current.secret,
    );
    if (rotated) return { secret, previousValidUntil };
  }
}

function deliveryOf(row: LoggedAttempt): DeliveryJson {
  return {
    eventId: row.eventId,
    type: row.type,
    attempt: row.attempt,
    at: row.at,
    status: row.httpStatus,
    outcome: row.outcome as DeliveryJson['outcome'],
    durationMs: row.durationMs,
    response: row.response,
  };
}

/** The last attempt's time, event and number. */
const cursorOf = (row: LoggedAttempt): string => encodeCursor([row.at, row.eventId, row.attempt]);

const readCursor = ([at, eventId, attempt]: unknown[]): LogCursor | undefined =>
  typeof at === 'string' && typeof eventId === 'string' && Number.isSafeInteger(attempt)
    ? { at, eventId, attempt: attempt as number }
    : undefined;

/** The delivery log, newest first, a page at a time. */
export async function listDeliveries(
  deps: EndpointDeps,
  accountId: string,
  query: { limit?: number; cursor?: string; eventId?: string },
): Promise<{ deliveries: DeliveryJson[]; nextCursor: string | null }> {
  const limit = query.limit ?? 50;
  const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor, readCursor);
  const rows = await deps.deliveries.attempts(accountId, { limit: limit + 1, cursor, eventId: query.eventId });
  const { page, nextCursor } = pageOf(rows, limit, cursorOf);
  return { deliveries: page.map(deliveryOf), nextCursor };
}

/** Sends an event again under the same `webhook-id` and body. */
export async function resendEvent(
  deps: EndpointDeps,
  account: AccountRow,
  eventId: string,
): Promise<{ eventId: string }> {
  requirePlan(account);
  requireEnabled(await requireEndpoint(deps, account.id));
  if (!(await deps.deliveries.resend(account.id, eventId, deps.now().getTime())))
    throw new AppError('event_not_found', `There is no event ${eventId} of this account.`);
  deps.worker.wake();
  return { eventId };
}

function attemptJson(record: AttemptRecord): DeliveryJson {
  return {
    eventId: record.eventId,
    type: 'test',
    attempt: record.attempt,
    at: record.at,
    status: record.result.httpStatus,
    outcome: record.result.outcome,
    durationMs: record.result.durationMs,
    response: record.result.response,
  };
}

/**
 * Queues a `test` event and makes its first attempt in this request, so the answer says
 * what the endpoint did; when the endpoint has all its share in flight here, the event
 * waits in the queue (202). A failed test is retried like any event.
 */
export async function sendTest(
  deps: EndpointDeps,
  account: AccountRow,
): Promise<{ queued: boolean; eventId: string; delivery: DeliveryJson | null }> {
  requirePlan(account);
  requireEnabled(await requireEndpoint(deps, account.id));
  const now = deps.now();
  const event = newEvent(account.id, 'test', { message: 'A test event from calc.', accountId: account.id }, now);
  if (!(await deps.deliveries.add(event, now.getTime()))) await requireEndpoint(deps, account.id);
  const record = await deps.worker.deliverNow(account.id, event.id);
  if (record === null) {
    deps.worker.wake();
    return { queued: true, eventId: event.id, delivery: null };
  }
  return { queued: false, eventId: event.id, delivery: attemptJson(record) };
}
