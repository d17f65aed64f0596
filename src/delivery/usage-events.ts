import type { DeliveryStore } from '../db/delivery-store.ts';
import type { Logger } from '../logger.ts';
import type { ThresholdCrossing } from '../usage/counter.ts';
import { newEvent } from './events.ts';

/**
 * The `data` of a `usage.warning` or `usage.exhausted` event (docs/results.md, "Usage
 * events"): the account's figures, never a visitor's.
 */
function usageEventData(crossing: ThresholdCrossing) {
  const { accountId, limitKind, period, used, limit, domain } = crossing;
  return {
    accountId,
    limitKind,
    month: period.slice(0, 7),
    ...(limitKind === 'quota' ? {} : { day: period }),
    ...(domain === undefined ? {} : { domain }),
    used,
    limit,
    percent: Math.floor((used * 100) / limit),
  };
}

/**
 * Turns the counter's threshold crossings into events for the account's results endpoint,
 * off the load's path: the load that crosses starts the write and is answered without it.
 * Each account, period and kind is queued once, whatever the number of servers that see
 * the crossing: the database keeps the key (`addUsageEvent`).
 */
export function createUsageEvents(deps: {
  deliveries: Pick<DeliveryStore, 'addUsageEvent'>;
  wake: () => void;
  now: () => Date;
  logger: Logger;
}) {
  const writing = new Set<Promise<void>>();

  async function send(crossing: ThresholdCrossing): Promise<void> {
    const now = deps.now();
    const event = newEvent(crossing.accountId, `usage.${crossing.threshold}`, usageEventData(crossing), now);
    const key = {
      accountId: crossing.accountId,
      period: crossing.period,
      kind: `${crossing.limitKind}.${crossing.threshold}`,
    };
    if (await deps.deliveries.addUsageEvent(key, event, now.getTime())) deps.wake();
  }

  return {
    /** Queues the crossing's event unless it was queued already; never throws, never waits. */
    notify(crossing: ThresholdCrossing): void {
      const write = send(crossing)
        .catch((error: unknown) =>
          deps.logger.error(`usage.${crossing.threshold} event could not be queued`, {
            accountId: crossing.accountId,
            limitKind: crossing.limitKind,
            period: crossing.period,
            error: String(error),
          }),
        )
        .finally(() => writing.delete(write));
      writing.add(write);
    },

    /** Settles when every crossing seen so far is written (the shutdown's flush waits for it). */
    async settled(): Promise<void> {
      await Promise.all(writing);
    },
  };
}
