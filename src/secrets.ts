import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataDirError } from './data-dir/errors.ts';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniform random base62 (rejection sampling, so no character is more likely than another). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

/** Public widget keys carry a visible prefix that people and secret scanners recognise. */
export function newApiKey(): string {
  return `pk_${randomBase62(32)}`;
}

/** Signing secrets use the prefix owners know from other webhook senders. */
export function newSigningSecret(): string {
  return `whsec_${randomBase62(32)}`;
}

/** A visitor's stored result (docs/results.md). */
export function newResultId(): string {
  return `res_${randomBase62(20)}`;
}

export function newAccountId(): string {
  return `acct_${randomBase62(16)}`;
}

/** The secrets kept in the data directory: each is 32 random bytes, base64, in a 0600 file. */
const DATA_DIR_SECRETS = {
  'jwt-secret': 'every signed-in owner would be signed out',
  'webhook-key': 'every webhook header value stored so far would become unreadable',
} as const;
export type SecretName = keyof typeof DATA_DIR_SECRETS;
const SECRET_BYTES = 32;

/**
 * Reads a secret of a data directory whose database exists. A missing file is refused
 * unless `regenerate`: the database was created together with its secrets (`openDatabase`),
 * so a missing one was lost, and a new one silently breaks what the old one protected.
 */
export function loadSecret(dataDir: string, name: SecretName, regenerate: boolean): Buffer {
  const file = join(dataDir, name);
  if (!existsSync(file) && !regenerate) {
    throw new DataDirError(
      `${file} is missing but the database in ${dataDir} exists: a new ${name} would mean ${DATA_DIR_SECRETS[name]}. Restore the file from your backup of the data directory, or start once with --regenerate-secrets to accept that.`,
    );
  }
  return loadOrCreateSecret(dataDir, name);
}

/** Creates the data directory's missing secrets; `openDatabase` calls it before it creates a database. */
export function createMissingSecrets(dataDir: string): void {
  for (const name of Object.keys(DATA_DIR_SECRETS) as SecretName[]) loadOrCreateSecret(dataDir, name);
}

/**
 * Reads a secret kept in the data directory, creating it (0600) when missing. The
 * directory must exist already (`ensureDataDir`).
 */
function loadOrCreateSecret(dataDir: string, name: SecretName, bytes = SECRET_BYTES): Buffer {
  const file = join(dataDir, name);
  if (existsSync(file)) {
    const value = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
    if (value.length !== bytes) {
      throw new DataDirError(
        `${file} is damaged: expected ${bytes} random bytes in base64. Restore it from your backup of the data directory.`,
      );
    }
    return value;
  }
  const value = randomBytes(bytes);
  // `wx`: never overwrite a secret another process wrote a moment ago.
  try {
    writeFileSync(file, `${value.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return loadOrCreateSecret(dataDir, name, bytes);
    throw error;
  }
  chmodSync(file, 0o600);
  return value;
}
