import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

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

export function newAccountId(): string {
  return `acct_${randomBase62(16)}`;
}

/**
 * Reads a secret kept in the data directory, creating it (0600) on first use. The
 * directory must exist already (`ensureDataDir`).
 */
export function loadOrCreateSecret(dataDir: string, name: string, bytes = 32): Buffer {
  const file = join(dataDir, name);
  if (existsSync(file)) {
    const value = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
    if (value.length !== bytes) throw new Error(`${file} is damaged: expected ${bytes} random bytes in base64.`);
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
