import { Flags } from '@oclif/core';
import { dataDirFrom } from '../../src/config.ts';
import { openDatabase, type OpenDatabase } from '../../src/db/client.ts';
import { createSigningSecretsStore } from '../../src/db/signing-secrets-store.ts';
import { createSigningSecrets, type SigningSecrets } from '../../src/modules/signing-secret/service.ts';
import { createHeaderCipher } from '../../src/modules/widget-config/header-cipher.ts';
import { loadSecret } from '../../src/secrets.ts';

/** The `--data` flag of operator commands (default `CALC_DATA_DIR`, else `./data`). */
export const dataFlag = Flags.string({
  description: 'data directory holding calc.db [env: CALC_DATA_DIR] (default: ./data)',
});

/**
 * Opens the data directory's store for an operator command. SQLite's WAL and busy
 * timeout make this safe while a server uses the same directory.
 */
export function openDataDir(flag: string | undefined): OpenDatabase {
  return openDatabase(dataDirFrom(flag));
}

/**
 * Signing secrets in an opened data directory, sealed with its own webhook-key; a lost
 * key is refused (only `calc serve --regenerate-secrets` replaces it).
 */
export function signingSecretsOf(store: OpenDatabase, flag: string | undefined, now: () => Date): SigningSecrets {
  return createSigningSecrets({
    signingSecrets: createSigningSecretsStore(store.db),
    cipher: createHeaderCipher(loadSecret(dataDirFrom(flag), 'webhook-key', false)),
    now,
  });
}
