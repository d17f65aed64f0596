import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const FILE = 'server-id';

/**
 * This server's name, kept in its data directory (created on first start, 0600). One server
 * holds a data directory at a time, so whatever carries this name and was left behind by a
 * crash (delivery leases) belongs to no running process, and the next start takes it back.
 */
export function serverIdOf(dataDir: string): string {
  const file = join(dataDir, FILE);
  if (existsSync(file)) {
    const id = readFileSync(file, 'utf8').trim();
    if (id !== '') return id;
  }
  const id = randomUUID();
  writeFileSync(file, `${id}\n`, { mode: 0o600 });
  return id;
}
