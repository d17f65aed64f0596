import type { DeliveryEventRow, DeliveryStore } from '../db/delivery-store.ts';
import type { ResultsEndpointStore } from '../db/results-endpoint-store.ts';
import type { Logger } from '../logger.ts';
import type { HeaderCipher } from '../security/header-cipher.ts';
import { signedHeaders } from '../security/standard-webhooks.ts';
import { guardedPost, type GuardedPostDeps, type PostResult } from '../webhook/guarded-post.ts';
import { activeSecrets } from './endpoint-secrets.ts';
import type { RetrySchedule } from './schedule.ts';

/** Attempts in flight on one server, for all endpoints together. */
const MAX_IN_FLIGHT = 32;
/** Attempts in flight on one server for one endpoint: a slow one never holds more. */
export const PER_ENDPOINT = 4;
/** How much of an answer the log keeps. */
export const RESPONSE_BYTES = 1024;
/**
 * How long a claimed event belongs to its server: far beyond an attempt's 5 s, so that
 * only a server that died (or lost its database) leaves a lease to expire.
 */
const LEASE_MS = 60_000;
/**
 * Events leased per claim at most. Claims run again while they fill up; a small batch keeps
 * what is claimed past an endpoint's share (and given back) small, and leaves the rest for
 * other servers meanwhile.
 */
const CLAIM_BATCH = 2 * PER_ENDPOINT;
/** How often the queue is looked at for events due (retries, other servers' events). */
const POLL_MS = 1000;
/** Events and their log are kept this long (docs/results.md, "The delivery log"). */
const KEEP_MS = 30 * 24 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;

/** Why an endpoint was turned off, as the owner reads it. */
const DISABLED_AFTER_FAILURES = 'Every delivery failed for five days.';
const disabledByGone = (at: string) => `The endpoint answered 410 Gone at ${at}.`;

/** One attempt as the log records it. */
export interface AttemptRecord {
  eventId: string;
  attempt: number;
  at: string;
  result: PostResult;
  /** The event's state after the attempt. */
  status: DeliveryEventRow['status'];
}

export interface WorkerDeps {
  deliveries: DeliveryStore;
  endpoints: ResultsEndpointStore;
  cipher: HeaderCipher;
  post: Omit<GuardedPostDeps, 'maxResponseBytes'>;
  schedule: RetrySchedule;
  now: () => Date;
  logger: Logger;
  /** This server's name on its leases: the same after a restart on the same data directory. */
  owner: string;
  maxInFlight?: number;
  perEndpoint?: number;
  pollMs?: number;
}

/**
 * The delivery loop of one server: claims due events, attempts each once (guarded,
 * signed), records the attempt and schedules the next (docs/results.md). Woken at once when
 * this server queues an event, and by a poll for the rest. A bounded number of attempts are
 * in flight, at most `perEndpoint` of them for one endpoint, so a hostile endpoint holds
 * only its share and delays nothing else.
 */
export function createDeliveryWorker(deps: WorkerDeps) {
  const maxInFlight = deps.maxInFlight ?? MAX_IN_FLIGHT;
  const perEndpoint = deps.perEndpoint ?? PER_ENDPOINT;
  const perAccount = new Map<string, number>();
  const inFlight = new Set<Promise<unknown>>();
  let started = false;
  let stopped = false;
  let claiming: Promise<void> | null = null;
  let again = false;
  let poll: ReturnType<typeof setInterval> | undefined;
  let lastPrune = Number.NEGATIVE_INFINITY;
  /** Refills in progress, by account, and the accounts asked for again meanwhile. */
  const refilling = new Map<string, Promise<number>>();
  const refillAgain = new Set<string>();

  const saturated = () => [...perAccount].flatMap(([account, n]) => (n >= perEndpoint ? [account] : []));
  const hasRoom = (accountId: string) => inFlight.size < maxInFlight && (perAccount.get(accountId) ?? 0) < perEndpoint;

  /** Runs one attempt in a slot of its account; the slot is free again when it is recorded. */
  function launch(event: DeliveryEventRow): Promise<AttemptRecord | null> {
    perAccount.set(event.accountId, (perAccount.get(event.accountId) ?? 0) + 1);
    const running = attempt(event).catch((error: unknown) => {
      // The lease expires and another attempt is made: nothing is lost.
      deps.logger.error('a delivery attempt could not be recorded; it will be made again', {
        eventId: event.id,
        error: String(error),
      });
      return null;
    });
    const tracked = running.finally(() => {
      inFlight.delete(tracked);
      const left = (perAccount.get(event.accountId) ?? 1) - 1;
      if (left <= 0) perAccount.delete(event.accountId);
      else perAccount.set(event.accountId, left);
      afterAttempt(event.accountId);
    });
    inFlight.add(tracked);
    return running;
  }

  async function attempt(event: DeliveryEventRow): Promise<AttemptRecord | null> {
    const lease = { owner: deps.owner, leaseUntil: event.leaseUntil ?? 0 };
    const endpoint = await deps.endpoints.find(event.accountId);
    if (!endpoint || endpoint.disabledReason !== null) {
      // Disabled meanwhile: the event waits for the owner to turn the endpoint on again.
      await deps.deliveries.release([event.id], deps.owner);
      return null;
    }
    const startedAt = deps.now();
    const at = startedAt.toISOString();
    const headers = signedHeaders(activeSecrets(deps.cipher, endpoint, startedAt), {
      id: event.id,
      timestampSeconds: startedAt.getTime() / 1000,
      body: event.payload,
    });
    const result = await guardedPost(endpoint.url, event.payload, headers, {
      ...deps.post,
      maxResponseBytes: RESPONSE_BYTES,
    });
    const number = event.attempts + 1;
    const gone = result.httpStatus === 410;
    let status: DeliveryEventRow['status'] = 'delivered';
    let next = startedAt.getTime();
    if (result.outcome !== 'ok') {
      next += deps.schedule.waitAfter(number);
      const expired = next > Date.parse(event.createdAt) + deps.schedule.giveUpAfterMs;
      status = gone || expired ? 'failed' : 'pending';
    }
    const recorded = await deps.deliveries.finish({
      eventId: event.id,
      ...lease,
      status,
      nextAttemptAt: next,
      log: {
        eventId: event.id,
        attempt: number,
        accountId: event.accountId,
        at,
        outcome: result.outcome,
        httpStatus: result.httpStatus,
        durationMs: result.durationMs,
        response: result.response,
      },
    });
    if (!recorded) return null; // the lease had passed to another attempt, which records its own
    if (result.outcome === 'ok') {
      if (endpoint.failingSince !== null) await deps.endpoints.recordSuccess(event.accountId);
    } else if (gone) {
      await deps.endpoints.disable(event.accountId, disabledByGone(at));
      deps.logger.warn('a results endpoint answered 410 Gone and is disabled', { accountId: event.accountId });
    } else {
      const disableFrom = new Date(startedAt.getTime() - deps.schedule.disableAfterMs).toISOString();
      const disabled = await deps.endpoints.recordFailure(event.accountId, at, disableFrom, DISABLED_AFTER_FAILURES);
      if (disabled && endpoint.disabledReason === null)
        deps.logger.warn('a results endpoint failed for five days and is disabled', { accountId: event.accountId });
    }
    return { eventId: event.id, attempt: number, at, result, status };
  }

  /** Claims due events while there is room, until none is left. */
  async function claimRound(): Promise<void> {
    do {
      again = false;
      while (!stopped && inFlight.size < maxInFlight) {
        const now = deps.now().getTime();
        const limit = Math.min(maxInFlight - inFlight.size, CLAIM_BATCH);
        const events = await deps.deliveries.claim({
          now,
          leaseUntil: now + LEASE_MS,
          owner: deps.owner,
          limit,
          skipAccounts: saturated(),
        });
        const excess: string[] = [];
        for (const event of events) {
          if (!stopped && hasRoom(event.accountId)) void launch(event);
          else excess.push(event.id);
        }
        // Past an endpoint's share (or the server's room): back to the queue untried.
        if (excess.length > 0) await deps.deliveries.release(excess, deps.owner);
        if (events.length < limit) break;
      }
    } while (again && !stopped);
  }

  /**
   * Claims due events of one endpoint while it has room here: one range of the queue's
   * (account, status, due time) index, however long the queue of this or any endpoint.
   * Answers how many attempts it launched.
   */
  function refill(accountId: string): Promise<number> {
    const running = refilling.get(accountId);
    if (running) {
      refillAgain.add(accountId);
      return running;
    }
    const claimed = (async () => {
      let launched = 0;
      do {
        refillAgain.delete(accountId);
        for (;;) {
          const room = Math.min(perEndpoint - (perAccount.get(accountId) ?? 0), maxInFlight - inFlight.size);
          if (!started || stopped || room <= 0) return launched;
          const now = deps.now().getTime();
          const events = await deps.deliveries.claimFor(accountId, {
            now,
            leaseUntil: now + LEASE_MS,
            owner: deps.owner,
            limit: room,
          });
          const excess: string[] = [];
          for (const event of events) {
            if (!stopped && hasRoom(accountId)) {
              void launch(event);
              launched++;
            } else excess.push(event.id);
          }
          if (excess.length > 0) await deps.deliveries.release(excess, deps.owner);
          if (events.length < room) break;
        }
      } while (refillAgain.has(accountId) && !stopped);
      return launched;
    })()
      .catch((error: unknown) => {
        deps.logger.error('looking for due deliveries failed; will retry', { error: String(error) });
        return 0;
      })
      .finally(() => refilling.delete(accountId));
    refilling.set(accountId, claimed);
    return claimed;
  }

  /**
   * After an attempt: with room to spare on this server, the endpoint's own next events
   * (cheap), and a look at every endpoint's only when it had none; near the server's limit,
   * the oldest due events of any endpoint, so that no endpoint waits behind busy ones.
   */
  function afterAttempt(accountId: string): void {
    if (!started || stopped) return;
    if (inFlight.size + perEndpoint > maxInFlight) {
      wake();
      return;
    }
    void refill(accountId).then((launched) => {
      if (launched === 0) wake();
    });
  }

  /** Looks for due events now (an event was queued here, an attempt ended, the poll). */
  function wake(): void {
    if (!started || stopped) return;
    if (claiming) {
      again = true;
      return;
    }
    claiming = claimRound()
      .catch((error: unknown) =>
        deps.logger.error('looking for due deliveries failed; will retry', { error: String(error) }),
      )
      .finally(() => {
        claiming = null;
      });
  }

  async function prune(): Promise<void> {
    const now = deps.now().getTime();
    if (now - lastPrune < PRUNE_EVERY_MS) return;
    lastPrune = now;
    await deps.deliveries.prune(new Date(now - KEEP_MS).toISOString());
  }

  return {
    /** Takes back what this server had in flight when it last stopped, then starts the loop. */
    async start(): Promise<void> {
      if (started) return;
      const released = await deps.deliveries.releaseOwner(deps.owner);
      if (released > 0)
        deps.logger.warn(`${released} deliveries were in flight when this server last stopped; they are due again`);
      started = true;
      poll = setInterval(() => {
        wake();
        prune().catch((error: unknown) =>
          deps.logger.error('pruning the delivery log failed; will retry', { error: String(error) }),
        );
      }, deps.pollMs ?? POLL_MS);
      wake();
    },

    wake,

    /**
     * Wakes the loop for an event just queued for `accountId`: its endpoint's due events are
     * claimed, unless it has all its share in flight here; then one of those attempts, as it
     * ends, takes the next. (A submission every few hundred microseconds must not have each
     * look through every endpoint's queue.)
     */
    wakeFor(accountId: string): void {
      if (hasRoom(accountId)) void refill(accountId);
    },

    /**
     * Attempts one event now, in this request, when its endpoint has room here; null when it
     * has none or the event is not pending (the loop then attempts it).
     */
    async deliverNow(accountId: string, eventId: string): Promise<AttemptRecord | null> {
      if (stopped || !hasRoom(accountId)) return null;
      const now = deps.now().getTime();
      const event = await deps.deliveries.claimOne(eventId, { now, leaseUntil: now + LEASE_MS, owner: deps.owner });
      return event ? launch(event) : null;
    },

    /**
     * Settles once nothing is being claimed or attempted here: after a `wake()`, every event
     * that was due has been attempted (what tests and drills wait for instead of time).
     */
    async idle(): Promise<void> {
      while (claiming || inFlight.size > 0 || refilling.size > 0)
        await Promise.allSettled([claiming, ...inFlight, ...refilling.values()]);
    },

    /** Attempts in flight here: for one account, or in all. */
    inFlight: (accountId?: string): number =>
      accountId === undefined ? inFlight.size : (perAccount.get(accountId) ?? 0),

    /**
     * Takes no new attempt and waits for those in flight until `deadline` (performance.now()
     * time). Answers how many were still in flight: their leases come back at the next start.
     */
    async stop(deadline: number): Promise<number> {
      stopped = true;
      clearInterval(poll);
      while (inFlight.size > 0) {
        const left = deadline - performance.now();
        if (left <= 0) break;
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([
          Promise.allSettled([...inFlight]),
          new Promise((resolve) => {
            timer = setTimeout(resolve, left);
          }),
        ]);
        clearTimeout(timer);
      }
      return inFlight.size;
    },
  };
}

export type DeliveryWorker = ReturnType<typeof createDeliveryWorker>;
