import { AppError } from '../errors.ts';
import { createLoginLimiter, type LoginLimiter } from '../modules/accounts/login-limiter.ts';
import { createAccountsStore } from './accounts-store.ts';
import type { OpenDatabase } from './client.ts';
import { createDomainsStore } from './domains-store.ts';
import type { OpenPostgres } from './postgres/client.ts';
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
    };
  }
  const { db } = backend;
  return {
    accounts: guarded(createPgAccountsStore(db)),
    domains: guarded(createPgDomainsStore(db)),
    usage: guarded(createPgUsageStore(db)),
    configs: guarded(createPgWidgetConfigStore(db)),
    signingSecrets: guarded(createPgSigningSecretsStore(db)),
  };
}

/**
 * Where failed sign-ins are counted: in memory for the one server on a SQLite data
 * directory, in the database when servers share PostgreSQL (one limit across them all).
 */
export function loginLimiterOf(backend: Backend, now: () => number): LoginLimiter {
  if ('sqlite' in backend) return createLoginLimiter({ now });
  return guarded(createPgLoginLimiter(backend.db, now));
}

/** A request waits at most this long for PostgreSQL before it answers 503 `not_ready`. */
const QUERY_DEADLINE_MS = 1500;

// Connection failures (Bun's client codes, errno names, SQLSTATE class 08 and
// 57P0x shutdowns): an outage, not a bug.
const OUTAGE = /CONNECTION|ECONN|ETIMEDOUT|EPIPE|ENOTFOUND|^08|^57P0/;

/** drizzle wraps the driver's error as `cause`: the code may be one level down. */
function isOutage(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 3; depth++) {
    if (OUTAGE.test(String(e.code ?? ''))) return true;
    e = e.cause as typeof e;
  }
  return false;
}

function unavailable(): AppError {
  return new AppError('not_ready', 'The database does not answer; try again in a moment.');
}

/**
 * Every method of a PostgreSQL store under a deadline, with outages answered as 503
 * `not_ready` instead of hanging or a 500: a database that is down or unreachable is
 * the operator's to fix, and clients may retry.
 */
// biome-ignore lint/suspicious/noExplicitAny: any method signature
function guarded<T extends { [K in keyof T]: (...args: any[]) => unknown }>(store: T): T {
  const wrapped: Record<string, unknown> = {};
  // biome-ignore lint/suspicious/noExplicitAny: any method signature
  for (const [name, method] of Object.entries<(...args: any[]) => unknown>(store)) {
    wrapped[name] = (...args: unknown[]) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(unavailable()), QUERY_DEADLINE_MS);
      });
      return Promise.race([method(...args), deadline])
        .catch((error: unknown) => {
          throw error instanceof AppError || !isOutage(error) ? error : unavailable();
        })
        .finally(() => clearTimeout(timer));
    };
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
