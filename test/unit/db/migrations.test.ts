import { expect, test } from 'bun:test';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase, readPragmas } from '../../../src/db/client.ts';
import { readEmbeddedMigrations } from '../../../src/db/migrations.macro.ts' with { type: 'macro' };
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
