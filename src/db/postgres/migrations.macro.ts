import { join } from 'node:path';
import { readMigrationFiles, type MigrationMeta } from 'drizzle-orm/migrator';

/**
 * Runs at bundle time (imported `with { type: 'macro' }`): inlines `migrations/postgres/`
 * with drizzle-kit's hashes, as the SQLite side does, so the executable carries both.
 */
export function readEmbeddedPostgresMigrations(): MigrationMeta[] {
  return readMigrationFiles({ migrationsFolder: join(import.meta.dir, '..', '..', '..', 'migrations', 'postgres') });
}
