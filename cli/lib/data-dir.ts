import { Flags } from '@oclif/core';
import { dataDirFrom } from '../../src/config.ts';
import { openDatabase, type OpenDatabase } from '../../src/db/client.ts';

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
