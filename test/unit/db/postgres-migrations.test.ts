import { expect, test } from 'bun:test';
import { SQL } from 'bun';
import { join } from 'node:path';
import { openDatabase } from '../../../src/db/client.ts';
import { openPostgres } from '../../../src/db/postgres/client.ts';
import { readEmbeddedPostgresMigrations } from '../../../src/db/postgres/migrations.macro.ts';
import { usePostgres } from '../../helpers/postgres.ts';
import { tempDir } from '../../helpers/temp-dir.ts';

const pg = usePostgres();

/** Table → sorted column names, as each engine reports them. */
async function postgresColumns(url: string): Promise<Record<string, string[]>> {
  const client = new SQL({ url, max: 1 });
  try {
    const rows: { table_name: string; column_name: string }[] =
      await client`SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'`;
    return group(rows.map((r) => [r.table_name, r.column_name]));
  } finally {
    await client.close();
  }
}

function sqliteColumns(): Record<string, string[]> {
  using dir = tempDir();
  const database = openDatabase(join(dir.path, 'data'));
  try {
    const tables = database.sqlite
      .query<{ name: string }, []>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%'",
      )
      .all();
    const pairs: [string, string][] = [];
    for (const { name } of tables)
      for (const column of database.sqlite.query<{ name: string }, []>(`PRAGMA table_info(${name})`).all())
        pairs.push([name, column.name]);
    return group(pairs);
  } finally {
    database.close();
  }
}

function group(pairs: [string, string][]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [table, column] of pairs) {
    out[table] ??= [];
    out[table].push(column);
  }
  for (const columns of Object.values(out)) columns.sort();
  return out;
}

test('two servers starting together on an empty database both migrate it, once', async () => {
  const url = await pg().createDatabase();
  const opened = await Promise.all([openPostgres(url), openPostgres(url), openPostgres(url)]);
  try {
    const client = new SQL({ url, max: 1 });
    const applied: { n: number }[] = await client`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`;
    await client.close();
    expect(applied[0]?.n).toBeGreaterThan(0);
    // A later start finds nothing to apply and changes nothing.
    const again = await openPostgres(url);
    await again.close();
    const after = new SQL({ url, max: 1 });
    const still: { n: number }[] = await after`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`;
    await after.close();
    expect(still[0]?.n).toBe(applied[0]?.n);
  } finally {
    await Promise.all(opened.map((o) => o.close()));
  }
}, 60_000);

test('every SQLite table exists in PostgreSQL with the same columns', async () => {
  const url = await pg().createDatabase();
  const opened = await openPostgres(url);
  await opened.close();
  // Failed sign-ins are shared through PostgreSQL only (one SQLite server keeps them in memory).
  const { login_failures: loginFailures, ...shared } = await postgresColumns(url);
  expect(loginFailures).toEqual(['ends_at', 'failures', 'key']);
  expect(shared).toEqual(sqliteColumns());
}, 60_000);

test('owner caps on PostgreSQL: a busy pull moves from the calls to the skipped pulls', async () => {
  const all = readEmbeddedPostgresMigrations();
  const before = all.findIndex((m) => m.sql.some((statement) => statement.includes('CREATE TABLE "skipped_daily"')));
  expect(before).toBeGreaterThan(0);
  const url = await pg().createDatabase();
  const old = await openPostgres(url, { migrations: all.slice(0, before) });
  await old.db.$client.unsafe(
    "INSERT INTO accounts (id, email, password_hash, plan, api_key, created_at) VALUES ('keep', 'k@x.example', 'h', 'extra', 'pk_k', 'now')",
  );
  await old.db.$client.unsafe(
    "INSERT INTO webhook_daily VALUES ('keep', '2026-11-01', 'bmi', 'ok', 3), ('keep', '2026-11-01', 'bmi', 'busy', 2)",
  );
  await old.close();
  const upgraded = await openPostgres(url, { migrations: all });
  try {
    const client = upgraded.db.$client;
    expect(await client`SELECT outcome, calls::int FROM webhook_daily`).toEqual([{ outcome: 'ok', calls: 3 }]);
    expect(await client`SELECT day, calc_id, reason, count::int FROM skipped_daily`).toEqual([
      { day: '2026-11-01', calc_id: 'bmi', reason: 'busy', count: 2 },
    ]);
    expect(await client`SELECT register_domain, loads_per_day FROM accounts`).toEqual([
      { register_domain: 1, loads_per_day: null },
    ]);
  } finally {
    await upgraded.close();
  }
});
