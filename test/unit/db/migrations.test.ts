import { expect, test } from 'bun:test';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase, readPragmas } from '../../../src/db/client.ts';
import { readEmbeddedMigrations } from '../../../src/db/sqlite/migrations.macro.ts' with { type: 'macro' };
import { tempDir } from '../../helpers/temp-dir.ts';

test('the store runs in WAL with synchronous=NORMAL and foreign keys, in a private directory', () => {
  using dir = tempDir();
  const dataDir = join(dir.path, 'data');
  const database = openDatabase(dataDir);
  expect(readPragmas(database.sqlite)).toEqual({ journalMode: 'wal', synchronous: 1, foreignKeys: 1 });
  database.sqlite.run(
    "INSERT INTO accounts (id, email, password_hash, plan, api_key, created_at) VALUES ('a', 'a@x.example', 'h', 'free', 'pk_a', 'now')",
  );
  expect((statSync(dataDir).mode & 0o777).toString(8)).toBe('700');
  for (const file of ['calc.db', 'calc.db-wal', 'calc.db-shm'])
    expect((statSync(join(dataDir, file)).mode & 0o777).toString(8)).toBe('600');
  database.close();
});

test('a database made by each earlier migration set upgrades cleanly and keeps its data', () => {
  const all = readEmbeddedMigrations();
  expect(all.length).toBeGreaterThan(0);
  for (let applied = 0; applied < all.length; applied++) {
    using dir = tempDir();
    const dataDir = join(dir.path, 'data');
    const old = openDatabase(dataDir, all.slice(0, applied));
    const hadAccounts = old.sqlite.query("SELECT name FROM sqlite_master WHERE name = 'accounts'").get() !== null;
    if (hadAccounts)
      old.sqlite.run(
        "INSERT INTO accounts (id, email, password_hash, plan, api_key, created_at) VALUES ('keep', 'k@x.example', 'h', 'extra', 'pk_k', 'now')",
      );
    old.close();

    const upgraded = openDatabase(dataDir, all);
    const rows = upgraded.sqlite.query('SELECT hash FROM __drizzle_migrations ORDER BY id').all() as { hash: string }[];
    expect(rows.map((r) => r.hash)).toEqual(all.map((m) => m.hash));
    if (hadAccounts)
      expect(upgraded.sqlite.query("SELECT plan FROM accounts WHERE id = 'keep'").get()).toEqual({ plan: 'extra' });
    upgraded.close();
    // Opening again applies nothing twice.
    const again = openDatabase(dataDir, all);
    expect((again.sqlite.query('SELECT count(*) AS n FROM __drizzle_migrations').get() as { n: number }).n).toBe(
      all.length,
    );
    again.close();
  }
});

test('per-day usage rows survive the move to WITHOUT ROWID tables, and still go with their account', () => {
  const all = readEmbeddedMigrations();
  // The migration set just before the per-day tables were rebuilt.
  const before = all.findIndex((m) => m.sql.some((statement) => statement.includes('WITHOUT ROWID')));
  expect(before).toBeGreaterThan(0);
  using dir = tempDir();
  const dataDir = join(dir.path, 'data');
  const old = openDatabase(dataDir, all.slice(0, before));
  old.sqlite.run(
    "INSERT INTO accounts (id, email, password_hash, plan, api_key, created_at) VALUES ('keep', 'k@x.example', 'h', 'extra', 'pk_k', 'now'), ('gone', 'g@x.example', 'h', 'free', 'pk_g', 'now')",
  );
  old.sqlite.run(
    "INSERT INTO usage_daily VALUES ('keep', '2026-11-01', 'bmi', 'https://shop.example', 7), ('gone', '2026-11-01', 'bmi', 'https://shop.example', 1)",
  );
  old.sqlite.run("INSERT INTO webhook_daily VALUES ('keep', '2026-11-01', 'bmi', 'ok', 3)");
  old.close();

  const upgraded = openDatabase(dataDir, all);
  const tableSql = (name: string) =>
    (upgraded.sqlite.query('SELECT sql FROM sqlite_master WHERE name = ?').get(name) as { sql: string }).sql;
  expect(tableSql('usage_daily')).toContain('WITHOUT ROWID');
  expect(tableSql('webhook_daily')).toContain('WITHOUT ROWID');
  expect(upgraded.sqlite.query("SELECT name FROM sqlite_master WHERE name LIKE '%daily_day_idx'").all()).toHaveLength(
    2,
  );
  upgraded.sqlite.run("DELETE FROM accounts WHERE id = 'gone'");
  expect(upgraded.sqlite.query('SELECT account_id, loads FROM usage_daily').all()).toEqual([
    { account_id: 'keep', loads: 7 },
  ]);
  expect(upgraded.sqlite.query('SELECT calls FROM webhook_daily').all()).toEqual([{ calls: 3 }]);
  upgraded.close();
});
