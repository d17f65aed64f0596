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
  expect(
    upgraded.sqlite
      .query("SELECT name FROM sqlite_master WHERE name IN ('usage_daily_day_idx', 'webhook_daily_day_idx')")
      .all(),
  ).toHaveLength(2);
  upgraded.sqlite.run("DELETE FROM accounts WHERE id = 'gone'");
  expect(upgraded.sqlite.query('SELECT account_id, loads FROM usage_daily').all()).toEqual([
    { account_id: 'keep', loads: 7 },
  ]);
  expect(upgraded.sqlite.query('SELECT calls FROM webhook_daily').all()).toEqual([{ calls: 3 }]);
  upgraded.close();
});

test('owner caps: accounts keep no cap and register-domain on; a busy pull moves from the calls to the skipped pulls', () => {
  const all = readEmbeddedMigrations();
  const before = all.findIndex((m) => m.sql.some((statement) => statement.includes('CREATE TABLE `skipped_daily`')));
  expect(before).toBeGreaterThan(0);
  using dir = tempDir();
  const dataDir = join(dir.path, 'data');
  const old = openDatabase(dataDir, all.slice(0, before));
  old.sqlite.run(
    "INSERT INTO accounts (id, email, password_hash, plan, api_key, created_at) VALUES ('keep', 'k@x.example', 'h', 'extra', 'pk_k', 'now')",
  );
  old.sqlite.run(
    "INSERT INTO webhook_daily VALUES ('keep', '2026-11-01', 'bmi', 'ok', 3), ('keep', '2026-11-01', 'bmi', 'busy', 2), ('keep', '2026-11-02', 'tip', 'busy', 5)",
  );
  old.close();

  const upgraded = openDatabase(dataDir, all);
  expect(
    upgraded.sqlite
      .query('SELECT loads_per_day, loads_per_day_per_domain, pulls_per_second, register_domain FROM accounts')
      .all(),
  ).toEqual([{ loads_per_day: null, loads_per_day_per_domain: null, pulls_per_second: null, register_domain: 1 }]);
  expect(upgraded.sqlite.query('SELECT outcome, calls FROM webhook_daily').all()).toEqual([
    { outcome: 'ok', calls: 3 },
  ]);
  expect(upgraded.sqlite.query('SELECT day, calc_id, reason, count FROM skipped_daily ORDER BY day').all()).toEqual([
    { day: '2026-11-01', calc_id: 'bmi', reason: 'busy', count: 2 },
    { day: '2026-11-02', calc_id: 'tip', reason: 'busy', count: 5 },
  ]);
  for (const table of ['refused_daily', 'skipped_daily'])
    expect(
      (upgraded.sqlite.query('SELECT sql FROM sqlite_master WHERE name = ?').get(table) as { sql: string }).sql,
    ).toContain('WITHOUT ROWID');
  upgraded.sqlite.run("DELETE FROM accounts WHERE id = 'keep'");
  expect(upgraded.sqlite.query('SELECT count(*) AS n FROM skipped_daily').get()).toEqual({ n: 0 });
  upgraded.close();
});
