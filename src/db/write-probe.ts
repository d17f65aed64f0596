import type { Database } from 'bun:sqlite';

/**
 * One real write to the database, undone by nothing: it rewrites the header's
 * `user_version` with its own value (no migration or query reads it), inside a write
 * transaction. It fails as a real write would: disk full, read-only file system, the
 * file's permissions.
 */
export function probeWrite(sqlite: Database): void {
  sqlite
    .transaction(() => {
      const { user_version } = sqlite.query('PRAGMA user_version').get() as { user_version: number };
      sqlite.run(`PRAGMA user_version = ${Number(user_version) | 0}`);
    })
    .immediate();
}
