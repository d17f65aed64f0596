import { SQL } from 'bun';
import { drizzle, type BunSQLDatabase } from 'drizzle-orm/bun-sql';
import type { MigrationMeta } from 'drizzle-orm/migrator';
import { readEmbeddedPostgresMigrations } from './migrations.macro.ts' with { type: 'macro' };
import { DEFAULT_DATABASE_POOL, DEFAULT_WIDGET_POOL } from '../../config.ts';
import * as schema from './schema.ts';

export type PgDb = BunSQLDatabase<typeof schema> & { $client: SQL };

/** The rows of drizzle's `execute` on Bun's client (an array; drizzle types it per driver). */
export function rowsOf<T = Record<string, unknown>>(result: unknown): T[] {
  return (Array.isArray(result) ? result : ((result as { rows?: T[] }).rows ?? [])) as T[];
}

export interface OpenPostgres {
  db: PgDb;
  /**
   * The widget's key lookups run on a pool of their own: nothing else waits there (no
   * transaction, no lock wait, no slow report), and its few connections carry many
   * queued lookups per write (docs/performance.md, "Pool size and prepared statements").
   */
  widget: SQL;
  /** Throws unless the last ping (one a second) answered within its time. */
  assertReachable(): void;
  close(): Promise<void>;
}

const PING_EVERY_MS = 1000;
/**
 * A ping slower than this counts as an outage: a hung database turns `/readyz` to 503
 * within two seconds (the next ping starts within one, and times out one later).
 */
const PING_TIMEOUT_MS = 1000;

/**
 * The advisory lock every calc server takes while it migrates: two servers starting
 * together on an empty database take turns instead of racing on CREATE TABLE.
 */
const MIGRATION_LOCK = 0x63616c63; // "calc"

export interface PostgresOptions {
  /** Connections kept open at most for everything but the widget's lookups (`--database-pool`). */
  pool?: number;
  /** Connections kept open at most for the widget's lookups (`--database-widget-pool`). */
  widgetPool?: number;
  migrations?: MigrationMeta[];
}

/**
 * Connects to `url` (postgres://…) through Bun's built-in client and applies the
 * migrations embedded at build time, under the migration lock. Options the URL carries
 * (`?path=` for a Unix socket, `?prepare=false` behind a transaction pooler) reach the
 * client as they are.
 */
export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<OpenPostgres> {
  const { migrations = readEmbeddedPostgresMigrations() } = options;
  const client = clientFor(url, options.pool ?? DEFAULT_DATABASE_POOL);
  try {
    await migrateLocked(client, migrations);
  } catch (error) {
    await client.close();
    throw error;
  }
  return watched(client, clientFor(url, options.widgetPool ?? DEFAULT_WIDGET_POOL));
}

/**
 * Connects to an already migrated database (the client connects on first use), for
 * callers that cannot wait: tests that clone a migrated template.
 */
export function connectPostgres(url: string): OpenPostgres {
  return watched(clientFor(url, DEFAULT_DATABASE_POOL), clientFor(url, DEFAULT_WIDGET_POOL));
}

/** A pool of Bun's client; it connects on first use. */
function clientFor(url: string, max: number): SQL {
  return new SQL({ url, max, connectionTimeout: 5, idleTimeout: 60 });
}

/** The store over `client`, with the ping that `/readyz` and the outage checks read. */
function watched(client: SQL, widget: SQL): OpenPostgres {
  const db = drizzle({ client, schema });
  let reachable = true;
  let pinging = false;
  const ping = setInterval(() => {
    if (pinging) return;
    pinging = true;
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('ping timed out')), PING_TIMEOUT_MS),
    );
    Promise.race([client`SELECT 1`, timeout])
      .then(
        () => {
          reachable = true;
        },
        () => {
          reachable = false;
        },
      )
      .finally(() => {
        pinging = false;
      });
  }, PING_EVERY_MS);
  return {
    db,
    widget,
    assertReachable() {
      if (!reachable) throw new Error('PostgreSQL does not answer');
    },
    close: async () => {
      clearInterval(ping);
      await Promise.all([client.close(), widget.close()]);
    },
  };
}

async function migrateLocked(client: SQL, migrations: MigrationMeta[]): Promise<void> {
  // One connection holds the session lock and runs the migrations, so the lock covers them.
  const reserved = await client.reserve();
  try {
    await reserved`SELECT pg_advisory_lock(${MIGRATION_LOCK})`;
    try {
      const db = drizzle({ client: reserved as unknown as SQL, schema });
      // drizzle's own migrator (its bookkeeping table and hashes), fed the inlined list.
      const internals = db as unknown as {
        dialect: { migrate(m: MigrationMeta[], session: unknown, config: object): Promise<void> };
        session: unknown;
      };
      await internals.dialect.migrate(migrations, internals.session, {});
    } finally {
      await reserved`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`;
    }
  } finally {
    reserved.release();
  }
}
