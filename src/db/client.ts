import { Database, SQLiteError } from 'bun:sqlite';
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { drizzle, type BunSQLiteDatabase } from 'drizzle-orm/bun-sqlite';
import type { MigrationMeta } from 'drizzle-orm/migrator';
import { readEmbeddedMigrations } from './sqlite/migrations.macro.ts' with { type: 'macro' };
import { DataDirError } from '../data-dir/errors.ts';
import { withDirLock } from '../data-dir/lock.ts';
import { createMissingSecrets } from '../secrets.ts';
import * as schema from './sqlite/schema.ts';

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
 *
 * Two processes may start on a new directory at once (`calc serve` and an operator
 * command): the busy timeout comes before any statement that takes a lock, and creation
 * and migrations run under a lock on the directory, so the second process finds them done.
 * A new database gets its secrets first, so a database without them means they were lost.
 */
export function openDatabase(dataDir: string, migrations: MigrationMeta[] = readEmbeddedMigrations()): OpenDatabase {
  ensureDataDir(dataDir);
  const file = join(dataDir, 'calc.db');
  // Files created from here on (db, -wal, -shm, secrets) are private to the operator.
  const previousUmask = process.umask(0o077);
  try {
    return withDirLock(dataDir, () => {
      if (!existsSync(file)) createMissingSecrets(dataDir);
      const sqlite = openSqlite(file);
      try {
        sqlite.run('PRAGMA journal_mode = WAL');
        sqlite.run('PRAGMA synchronous = NORMAL');
        sqlite.run('PRAGMA foreign_keys = ON');
        sqlite.run('PRAGMA temp_store = MEMORY');
        // Deleted rows are overwritten with zeros, not left in freed pages (docs/operations.md).
        sqlite.run('PRAGMA secure_delete = ON');
        const db = drizzle(sqlite, { schema });
        applyMigrations(db, migrations);
        chmodSync(file, 0o600);
        return { db, sqlite, file, close: () => sqlite.close() };
      } catch (error) {
        sqlite.close();
        throw unreadable(file, error);
      }
    });
  } finally {
    process.umask(previousUmask);
  }
}

function openSqlite(file: string): Database {
  let sqlite: Database;
  try {
    sqlite = new Database(file, { create: true, strict: true });
  } catch (error) {
    throw unreadable(file, error);
  }
  // First: every later statement may meet another process's lock and must wait for it.
  sqlite.run('PRAGMA busy_timeout = 5000');
  return sqlite;
}

/** SQLite's answers that mean the file itself cannot be used (not a passing lock). */
const UNREADABLE = /^SQLITE_(NOTADB|CORRUPT|CANTOPEN|IOERR|READONLY|PERM|AUTH)/;

/** A damaged or inaccessible database: its path and how to restore it, instead of SQLite's bare words. */
function unreadable(file: string, error: unknown): unknown {
  if (!(error instanceof SQLiteError) || !UNREADABLE.test(error.code ?? '')) return error;
  return new DataDirError(
    `The database ${file} cannot be read (${error.message}). Check its owner and permissions; if it is damaged, restore it from a backup: stop calc, replace ${file} with a copy made by \`calc admin backup\`, remove ${file}-wal and ${file}-shm, and start again.`,
  );
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
