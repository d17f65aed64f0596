import { SQL } from 'bun';
import { afterAll } from 'bun:test';
import type { Backend } from '../../src/db/backend.ts';
import { openDatabase } from '../../src/db/client.ts';
import { connectPostgres, openPostgres } from '../../src/db/postgres/client.ts';
import { startCluster } from './postgres.ts';

/**
 * Which database the API suites run on: `CALC_TEST_DATABASE=postgres` runs them on a
 * throwaway PostgreSQL (test/run.ts does so in a second pass), SQLite otherwise.
 */
const TEST_DIALECT = dialectFromEnv();

function dialectFromEnv(): 'sqlite' | 'postgres' {
  const value = process.env.CALC_TEST_DATABASE || 'sqlite';
  if (value !== 'sqlite' && value !== 'postgres')
    throw new Error(`CALC_TEST_DATABASE must be sqlite or postgres, not ${JSON.stringify(value)}`);
  return value;
}

/**
 * One cluster per test file (bun's parallel workers give each file a fresh global, this
 * preloaded module included), started only when PostgreSQL is selected and stopped after
 * the file's last test, with a database migrated once by the real migrator: each app gets a copy of it
 * (CREATE DATABASE … TEMPLATE), which is much faster than migrating every time.
 */
const template = TEST_DIALECT === 'postgres' ? await migratedTemplate() : undefined;

async function migratedTemplate() {
  const cluster = startCluster();
  const admin = new SQL({ url: cluster.url('postgres'), max: 1 });
  // Each app's copy is dropped once its client closed: a few MB each, hundreds per run.
  const drops = new Set<Promise<unknown>>();
  const dropLater = (url: string, closed: Promise<unknown>) => {
    const drop = closed.finally(() => admin.unsafe(`DROP DATABASE IF EXISTS ${nameOf(url)} WITH (FORCE)`));
    drops.add(drop);
    void drop.finally(() => drops.delete(drop));
  };
  // bunfig.toml preloads this module, so this runs once, after the file's last test.
  afterAll(async () => {
    await Promise.allSettled([...drops]);
    await admin.close();
    cluster.stop();
  }, 60_000);
  const url = cluster.createDatabase();
  const migrated = await openPostgres(url);
  // A template must have no open connection when it is copied.
  await migrated.close();
  return { cluster, name: nameOf(url), dropLater };
}

function nameOf(url: string): string {
  return new URL(url).pathname.slice(1);
}

export interface TestDatabase {
  backend: Backend;
  /** Raw SQL on either dialect (`?` placeholders), for tests that look under the API. */
  sql(query: string, ...params: unknown[]): Promise<Record<string, unknown>[]>;
  /** Every table of the app's own (migration bookkeeping aside) with its column names. */
  tables(): Promise<{ name: string; columns: string[] }[]>;
  /** Makes every later query fail, as a database that went away. */
  breakConnection(): void;
  /**
   * Closes it; PostgreSQL's client only once `inFlight` (the app's start-up work) settled,
   * so that work does not fail for the closing, while a failure of its own still surfaces.
   */
  close(inFlight?: Promise<unknown>): void;
  /** Another connection to the same database, as another server sharing it has; closing it keeps the database. */
  connectAgain(): TestDatabase;
}

/**
 * A fresh, migrated database of the selected dialect; SQLite lives in `dataDir`. With
 * `sharedUrl`, a second connection to that PostgreSQL database instead (`connectAgain`).
 */
export function testDatabase(dataDir: string, sharedUrl?: string): TestDatabase {
  if (!template) {
    const database = openDatabase(dataDir);
    return {
      backend: database,
      sql: async (query, ...params) =>
        database.sqlite.query(query).all(...(params as never[])) as Record<string, unknown>[],
      tables: async () =>
        (
          database.sqlite
            .query(
              "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%'",
            )
            .all() as { name: string }[]
        ).map(({ name }) => ({
          name,
          columns: (database.sqlite.query(`PRAGMA table_info("${name}")`).all() as { name: string }[]).map(
            (column) => column.name,
          ),
        })),
      breakConnection: () => database.sqlite.close(),
      close: () => database.close(),
      connectAgain: () => testDatabase(dataDir),
    };
  }
  const url = sharedUrl ?? template.cluster.createDatabase(template.name);
  const database = connectPostgres(url);
  const client = database.db.$client;
  let closed = false;
  const close = (inFlight: Promise<unknown> = Promise.resolve()) => {
    if (closed) return;
    closed = true;
    if (sharedUrl !== undefined) {
      void inFlight.finally(() => database.close().catch(() => {}));
      return;
    }
    template.dropLater(
      url,
      inFlight.finally(() => database.close().catch(() => {})),
    );
  };
  // The client alone: the ping keeps running and finds the database gone, as in an outage.
  const breakConnection = () => {
    void client.close().catch(() => {});
  };
  return {
    backend: database,
    sql: async (query, ...params) => {
      let n = 0;
      return (await client.unsafe(
        query.replace(/\?/g, () => `$${++n}`),
        params,
      )) as Record<string, unknown>[];
    },
    tables: async () => {
      // drizzle keeps its bookkeeping in its own schema, not in public.
      const rows = (await client`
        SELECT table_name AS name, array_agg(column_name::text) AS columns
        FROM information_schema.columns WHERE table_schema = 'public' GROUP BY table_name`) as {
        name: string;
        columns: string[];
      }[];
      return rows.map(({ name, columns }) => ({ name, columns: [...columns] }));
    },
    breakConnection,
    close,
    connectAgain: () => testDatabase(dataDir, url),
  };
}
