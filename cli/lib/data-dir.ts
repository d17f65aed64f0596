import { Flags } from '@oclif/core';
import { databaseUrl, dataDirFrom, webhookKey } from '../../src/config.ts';
import { storesOf } from '../../src/db/backend.ts';
import { openDatabase, type OpenDatabase } from '../../src/db/client.ts';
import { openPostgres } from '../../src/db/postgres/client.ts';
import { createHeaderCipher, type HeaderCipher } from '../../src/security/header-cipher.ts';
import { loadSecret } from '../../src/secrets.ts';
import { CliFailure } from '../base-command.ts';

/** The `--data` flag of operator commands (default `CALC_DATA_DIR`, else `./data`). */
export const dataFlag = Flags.string({
  description: 'data directory holding calc.db [env: CALC_DATA_DIR] (default: ./data)',
});

/** The `--database-url` flag of operator commands: act on a shared PostgreSQL database. */
export const databaseUrlFlag = Flags.string({
  description:
    'postgres:// URL of the database the servers share; without it, the data directory [env: CALC_DATABASE_URL]',
  env: 'CALC_DATABASE_URL',
});

/** The stores an operator command acts on, wherever the data lives. */
export interface OperatorStore {
  stores: ReturnType<typeof storesOf>;
  /** The servers' webhook key as a cipher: it seals webhook headers and signing secrets. */
  cipher(): HeaderCipher;
  close(): Promise<void>;
}

/**
 * Opens what the servers use: the PostgreSQL database when `--database-url` (or
 * `CALC_DATABASE_URL`) is given, else the data directory's SQLite file.
 */
export async function openOperatorStore(flags: { data?: string; 'database-url'?: string }): Promise<OperatorStore> {
  const url = databaseUrl(flags['database-url']);
  // The servers seal with CALC_WEBHOOK_KEY when it is set, else with the data directory's key.
  const key = webhookKey(process.env.CALC_WEBHOOK_KEY);
  if (url === null) {
    const store = openDataDir(flags.data);
    const stores = storesOf(store);
    return {
      stores,
      cipher: () => createHeaderCipher(key ?? loadSecret(dataDirFrom(flags.data), 'webhook-key', false)),
      close: async () => store.close(),
    };
  }
  const store = await openPostgres(url);
  const stores = storesOf(store);
  return {
    stores,
    cipher: () => {
      if (key === null) throw new CliFailure('With a database URL, set CALC_WEBHOOK_KEY to the key the servers use.');
      return createHeaderCipher(key);
    },
    close: () => store.close(),
  };
}

/**
 * Opens the data directory's store for an operator command. SQLite's WAL and busy
 * timeout make this safe while a server uses the same directory.
 */
export function openDataDir(flag: string | undefined): OpenDatabase {
  return openDatabase(dataDirFrom(flag));
}
