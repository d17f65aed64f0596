import { SQL } from 'bun';
import { drizzle, type BunSQLDatabase } from 'drizzle-orm/bun-sql';
import type { MigrationMeta } from 'drizzle-orm/migrator';
import { readEmbeddedPostgresMigrations } from './migrations.macro.ts' with { type: 'macro' };
import { DEFAULT_DATABASE_POOL } from '../../config.ts';
import * as schema from './schema.ts';

export type PgDb = BunSQLDatabase<typeof schema> & { $client: SQL };

export interface OpenPostgres {
  db: PgDb;
  /** Throws unless the last ping (one a second) answered within its time. */
  assertReachable(): void;
  close(): Promise<void>;
}

const PING_EVERY_MS = 1000;
/** A ping slower than this counts as an outage: loads answer 503 within 2 s, never hang. */
const PING_TIMEOUT_MS = 1500;

/**
 * The advisory lock every calc server takes while it migrates: two servers starting
 * together on an empty database take turns instead of racing on CREATE TABLE.
 */
const MIGRATION_LOCK = 0x63616c63; // "calc"

export interface PostgresOptions {
  /** Connections kept open at most (`calc serve --database-pool`). */
  pool?: number;
  migrations?: MigrationMeta[];
}

/**
 * Connects to `url` (postgres://…) through Bun's built-in client and applies the
 * migrations embedded at build time, under the migration lock. Options the URL carries
 * (`?path=` for a Unix socket, `?prepare=false` behind a transaction pooler) reach the
 * client as they are.
 */
export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<OpenPostgres> {
  const { pool = DEFAULT_DATABASE_POOL, migrations = readEmbeddedPostgresMigrations() } = options;
  const client = new SQL({ url, max: pool, connectionTimeout: 5, idleTimeout: 60 });
  try {
    await migrateLocked(client, migrations);
  } catch (error) {
    await client.close();
    throw error;
  }
  return watched(client);
}

/**
 * Connects to an already migrated database (the client connects on first use), for
 * callers that cannot wait: tests that clone a migrated template.
 */
export function connectPostgres(url: string, pool = DEFAULT_DATABASE_POOL): OpenPostgres {
  return watched(new SQL({ url, max: pool, connectionTimeout: 5, idleTimeout: 60 }));
}

/** The store over `client`, with the ping that `/readyz` and the outage checks read. */
function watched(client: SQL): OpenPostgres {
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
    assertReachable() {
      if (!reachable) throw new Error('PostgreSQL does not answer');
    },
    close: async () => {
      clearInterval(ping);
      await client.close();
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
