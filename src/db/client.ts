import { Database } from 'bun:sqlite';
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { drizzle, type BunSQLiteDatabase } from 'drizzle-orm/bun-sqlite';
import type { MigrationMeta } from 'drizzle-orm/migrator';
import { readEmbeddedMigrations } from './migrations.macro.ts' with { type: 'macro' };
import * as schema from './schema.ts';

/** drizzle over bun:sqlite; `$client` is the Database itself, for the few hand-prepared hot statements. */
export type Db = BunSQLiteDatabase<typeof schema> & { $client: Database };

export interface OpenDatabase {
  db: Db;
  sqlite: Database;
  file: string;
  close(): void;
}

/** Creates the data directory 0700 if needed; the database and its WAL files are 0600. */
function ensureDataDir(dataDir: string): void {
  if (!existsSync(dataDir)) mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
}

/**
 * Opens (creating when missing) `calc.db` in the data directory with the pragmas a
 * server needs, and applies the migrations embedded at build time.
 */
export function openDatabase(dataDir: string, migrations: MigrationMeta[] = readEmbeddedMigrations()): OpenDatabase {
  ensureDataDir(dataDir);
  const file = join(dataDir, 'calc.db');
  // Files created from here on (db, -wal, -shm) are private to the operator.
  const previousUmask = process.umask(0o077);
  const sqlite = new Database(file, { create: true, strict: true });
  try {
    sqlite.run('PRAGMA journal_mode = WAL');
    sqlite.run('PRAGMA synchronous = NORMAL');
    sqlite.run('PRAGMA busy_timeout = 5000');
    sqlite.run('PRAGMA foreign_keys = ON');
    sqlite.run('PRAGMA temp_store = MEMORY');
    const db = drizzle(sqlite, { schema });
    applyMigrations(db, migrations);
    chmodSync(file, 0o600);
    return { db, sqlite, file, close: () => sqlite.close() };
  } catch (error) {
    sqlite.close();
    throw error;
  } finally {
    process.umask(previousUmask);
  }
}

/** The pragmas as SQLite reports them, for tests and `/readyz`. */
export function readPragmas(sqlite: Database): { journalMode: string; synchronous: number; foreignKeys: number } {
  const journal = sqlite.query('PRAGMA journal_mode').get() as { journal_mode: string };
  const sync = sqlite.query('PRAGMA synchronous').get() as { synchronous: number };
  const fk = sqlite.query('PRAGMA foreign_keys').get() as { foreign_keys: number };
  return { journalMode: journal.journal_mode, synchronous: sync.synchronous, foreignKeys: fk.foreign_keys };
}

function applyMigrations(db: Db, migrations: MigrationMeta[]): void {
  // drizzle's own migrator (its bookkeeping table and hashes), fed the inlined list
  // instead of a folder on disk.
  const internals = db as unknown as {
    dialect: { migrate(m: MigrationMeta[], session: unknown, config: object): void };
    session: unknown;
  };
  internals.dialect.migrate(migrations, internals.session, {});
}
