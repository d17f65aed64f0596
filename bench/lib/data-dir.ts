/** Copies of a stopped server's data directory, so each side of a comparison starts from the same data. */
import { Database } from 'bun:sqlite';
import { copyFileSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A consistent copy of `fromDir` in `toDir`: the database through `VACUUM INTO` (no
 * half-written pages, no WAL to carry along) and every other file (the secrets the
 * database goes with). The lock file stays behind.
 */
export function copyDataDir(fromDir: string, toDir: string): void {
  mkdirSync(toDir, { recursive: true, mode: 0o700 });
  for (const name of readdirSync(fromDir)) {
    if (name.startsWith('calc.db') || name === 'calc.lock' || !statSync(join(fromDir, name)).isFile()) continue;
    copyFileSync(join(fromDir, name), join(toDir, name));
  }
  const source = new Database(join(fromDir, 'calc.db'), { readonly: true });
  try {
    source.run(`VACUUM INTO '${join(toDir, 'calc.db').replaceAll("'", "''")}'`);
  } finally {
    source.close();
  }
}
