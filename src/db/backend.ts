import { createLoginLimiter, type LoginLimiter, type SignInLimits } from '../limits/login-limiter.ts';
import { createAccountsStore } from './accounts-store.ts';
import { createDeliveryStore } from './delivery-store.ts';
import { createPgDeliveryStore, createPgResultsEndpointStore } from './postgres/delivery-stores.ts';
import { createResultsEndpointStore } from './results-endpoint-store.ts';
import { createResultsConfigStore } from './results-config-store.ts';
import { createResultsStore } from './results-store.ts';
import { createPgResultsConfigStore, createPgResultsStore } from './postgres/results-stores.ts';
import type { OpenDatabase } from './client.ts';
import { DatabaseTimeout } from './faults.ts';
import { createCustomCalculatorsStore } from './custom-calculators-store.ts';
import { createDomainsStore } from './domains-store.ts';
import type { OpenPostgres } from './postgres/client.ts';
import { createPgCustomCalculatorsStore } from './postgres/custom-calculators-store.ts';
import { createPgLoginLimiter } from './postgres/login-limiter.ts';
import {
  createPgAccountsStore,
  createPgDomainsStore,
  createPgSigningSecretsStore,
  createPgUsageStore,
  createPgWidgetConfigStore,
} from './postgres/stores.ts';
import { createSigningSecretsStore } from './signing-secrets-store.ts';
import { createUsageStore } from './usage-store.ts';
import { createWidgetConfigStore } from './widget-config-store.ts';
import { probeWrite } from './write-probe.ts';

/** An opened store: SQLite in the data directory, or a shared PostgreSQL database. */
export type Backend = OpenDatabase | OpenPostgres;

/** Every store over one backend, chosen once at start: services never branch on the engine. */
export function storesOf(backend: Backend) {
  if ('sqlite' in backend) {
    const { db } = backend;
    return {
      accounts: createAccountsStore(db),
      domains: createDomainsStore(db),
      usage: createUsageStore(db),
      configs: createWidgetConfigStore(db),
      signingSecrets: createSigningSecretsStore(db),
      customCalculators: createCustomCalculatorsStore(db),
      resultsEndpoints: createResultsEndpointStore(db),
      deliveries: createDeliveryStore(db),
      results: createResultsStore(db),
      resultsConfigs: createResultsConfigStore(db),
    };
  }
  const { db, widget } = backend;
  return {
    accounts: guarded(createPgAccountsStore(db, widget)),
    domains: guarded(createPgDomainsStore(db)),
    // A flush adds counts: given up on while PostgreSQL still commits it, its counts would be
    // pending again and added twice. It is waited for (a dead connection still fails it).
    usage: guarded(createPgUsageStore(db), { unbounded: ['addAll'] }),
    configs: guarded(createPgWidgetConfigStore(db)),
    signingSecrets: guarded(createPgSigningSecretsStore(db)),
    // Its widget read (`published`) runs on the widget's pool, as the key lookup does.
    customCalculators: guarded(createPgCustomCalculatorsStore(db, widget)),
    resultsEndpoints: guarded(createPgResultsEndpointStore(db)),
    // An attempt's record (and a claim's leases) given up on while PostgreSQL still commits
    // it would be made again: waited for, as the usage flush is.
    deliveries: guarded(createPgDeliveryStore(db), { unbounded: ['finish', 'claim', 'claimOne', 'claimFor'] }),
    results: guarded(createPgResultsStore(db)),
    // Its load read (`snapshot`) runs on the widget's pool, as the key lookup does.
    resultsConfigs: guarded(createPgResultsConfigStore(db, widget)),
  };
}

/**
 * Where sign-ins (failed and successful) are counted: in memory for the one server on a SQLite data
 * directory, in the database when servers share PostgreSQL (one limit across them all).
 */
export function loginLimiterOf(backend: Backend, now: () => number, signIns: SignInLimits): LoginLimiter {
  if ('sqlite' in backend) return createLoginLimiter({ now, signIns });
  return guarded(createPgLoginLimiter(backend.db, now, signIns));
}

/** A request waits at most this long for PostgreSQL before it answers 503 `not_ready`. */
const QUERY_DEADLINE_MS = 1500;
/** How often calls past their deadline are looked for: a call gives up at most this much early. */
const SWEEP_MS = 100;

interface InFlight {
  /** The sweep count at which the call gives up. */
  due: number;
  giveUp(): void;
}

/**
 * Deadlines of the calls in flight, checked by one timer instead of a timer per call: a
 * widget load makes one call, and a timer set and cleared per call showed in its profile
 * (docs/performance.md, "Where the time goes on PostgreSQL"). Calls enter in the order of
 * their deadlines, so a sweep stops at the first one still in time.
 */
function deadlines() {
  const inFlight = new Set<InFlight>();
  let sweeps = 0;
  let timer: ReturnType<typeof setInterval> | undefined;
  const sweep = () => {
    sweeps++;
    for (const call of inFlight) {
      if (call.due > sweeps) break;
      inFlight.delete(call);
      call.giveUp();
    }
    if (inFlight.size === 0) {
      clearInterval(timer);
      timer = undefined;
    }
  };
  return {
    run<T>(work: T | Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const call: InFlight = {
          due: sweeps + Math.ceil(QUERY_DEADLINE_MS / SWEEP_MS),
          giveUp: () => reject(new DatabaseTimeout(`PostgreSQL did not answer within ${QUERY_DEADLINE_MS} ms`)),
        };
        inFlight.add(call);
        timer ??= setInterval(sweep, SWEEP_MS);
        Promise.resolve(work).then(
          (value) => {
            inFlight.delete(call);
            resolve(value);
          },
          (error: unknown) => {
            inFlight.delete(call);
            reject(error);
          },
        );
      });
    },
  };
}

/**
 * Every method of a PostgreSQL store under a deadline: a database that hangs is answered
 * as 503 `not_ready` instead of holding the request. Its other failures (refused, shutting
 * down, connection lost) pass as the driver's errors, which the error answer maps
 * (src/db/faults.ts) and logs with their cause.
 */
// biome-ignore lint/suspicious/noExplicitAny: any method signature
function guarded<T extends { [K in keyof T]: (...args: any[]) => unknown }>(
  store: T,
  options: { unbounded?: (keyof T & string)[] } = {},
): T {
  const { run } = deadlines();
  const wrapped: Record<string, unknown> = {};
  // biome-ignore lint/suspicious/noExplicitAny: any method signature
  for (const [name, method] of Object.entries<(...args: any[]) => unknown>(store)) {
    wrapped[name] = options.unbounded?.includes(name as keyof T & string)
      ? method
      : (...args: unknown[]) => run(method(...args));
  }
  return wrapped as T;
}

/** What `/readyz` checks: a read, and a write (SQLite) or the pinged connection (PostgreSQL). */
export function probesOf(backend: Backend): { read(): void; write(): void } {
  if ('sqlite' in backend) {
    const { sqlite } = backend;
    return { read: () => sqlite.query('SELECT 1').get(), write: () => probeWrite(sqlite) };
  }
  return { read: () => backend.assertReachable(), write: () => backend.assertReachable() };
}
