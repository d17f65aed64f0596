import { join } from 'node:path';
import { readMigrationFiles, type MigrationMeta } from 'drizzle-orm/migrator';

/**
 * Runs at bundle time (imported `with { type: 'macro' }`): reads `migrations/` and its
 * journal once and inlines them, with the hashes drizzle-kit writes, so the compiled
 * executable never looks for a migrations folder on disk.
 */
export function readEmbeddedMigrations(): MigrationMeta[] {
  return readMigrationFiles({ migrationsFolder: join(import.meta.dir, '..', '..', '..', 'migrations') });
}
