/**
 * The events a results endpoint receives and the shape every one is sent in
 * (docs/results.md, "Events"). Browser-safe: the dashboard and the CLI read the lists.
 */

/** Event types an owner may choose; `test` is always sent (the owner asked for it). */
export const EVENT_TYPES = ['result.submitted', 'usage.warning', 'usage.exhausted'] as const;

export type ChoosableEventType = (typeof EVENT_TYPES)[number];

export type EventType = ChoosableEventType | 'test';

/** How an event stands in the queue: waiting (or in flight), delivered, or given up on. */
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

/** The version of the event body; a change that breaks readers gets a new one. */
const EVENT_VERSION = 1;

/** An event ready to be queued: its id is its `webhook-id`, its payload the exact body sent. */
export interface NewEvent {
  id: string;
  accountId: string;
  type: EventType;
  payload: string;
  createdAt: string;
}

const ID_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** `msg_` and 24 random base36 characters (about 124 bits): the idempotency key owners keep. */
function newEventId(): string {
  let id = 'msg_';
  while (id.length < 28) {
    // Bytes from 252 up are skipped, so that every character is equally likely.
    for (const byte of crypto.getRandomValues(new Uint8Array(32)))
      if (byte < 252 && id.length < 28) id += ID_ALPHABET[byte % 36];
  }
  return id;
}

/**
 * Builds an event: `{type, version, id, createdAt, data}`, serialised once, so that every
 * attempt and every resend carries the same bytes under the same `webhook-id`.
 */
export function newEvent(accountId: string, type: EventType, data: unknown, now: Date): NewEvent {
  const id = newEventId();
  const createdAt = now.toISOString();
  return {
    id,
    accountId,
    type,
    payload: JSON.stringify({ type, version: EVENT_VERSION, id, createdAt, data }),
    createdAt,
  };
}
