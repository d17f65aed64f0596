import type { DeliveryStore } from '../db/delivery-store.ts';
import { newEvent, type EventType } from './events.ts';

/**
 * Queues events that stand alone for the account's results endpoint and wakes this
 * server's delivery loop, so the first attempt starts at once. Events written together
 * with another row (a submitted result) are queued inside that write's transaction instead
 * (`preparedEventIn`, `addPgEventIn`), then `wake()` after it commits; usage events, once per
 * period whatever the servers, by `createUsageEvents` (usage-events.ts).
 */
export function createEventQueue(deps: { deliveries: DeliveryStore; wake: () => void; now: () => Date }) {
  return {
    /** The event's id (its `webhook-id`), or null when the account's endpoint does not receive this type. */
    async enqueue(accountId: string, type: EventType, data: unknown): Promise<string | null> {
      const now = deps.now();
      const event = newEvent(accountId, type, data, now);
      if (!(await deps.deliveries.add(event, now.getTime()))) return null;
      deps.wake();
      return event.id;
    },
    wake: deps.wake,
  };
}
