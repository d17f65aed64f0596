import { Args } from '@oclif/core';
import { chmodSync, existsSync, rmSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { BaseCommand, CliFailure } from '../../base-command.ts';
import { dataFlag, openDataDir } from '../../lib/data-dir.ts';

export default class Backup extends BaseCommand {
  static override summary = 'Write a consistent copy of the database to FILE, also while the server runs.';
  static override description =
    "Uses SQLite's VACUUM INTO: one transaction-consistent snapshot, compacted. Keep the data directory's webhook-key and jwt-secret with it (stored webhook headers cannot be decrypted without webhook-key). Restore by stopping the server and putting the file in place as calc.db.";
  static override examples = ['<%= config.bin %> admin backup /var/backups/calc-$(date +%F).db'];
  static override args = {
    file: Args.string({ description: 'where to write the copy (must not exist)', required: true }),
  };
  static override flags = { data: dataFlag };

  async run() {
    const { args, flags } = await this.parse(Backup);
    const file = resolve(args.file);
    if (existsSync(file)) throw new CliFailure(`${file} already exists; choose a new file name.`);
    const store = openDataDir(flags.data);
    // The copy holds password hashes and keys: private like the original from its first byte.
    const previousUmask = process.umask(0o077);
    try {
      store.sqlite.run('VACUUM INTO ?', [file]);
      chmodSync(file, 0o600);
    } catch (error) {
      rmSync(file, { force: true });
      throw new CliFailure(`backup failed: ${(error as Error).message}`);
    } finally {
      process.umask(previousUmask);
      store.close();
    }
    const bytes = statSync(file).size;
    this.log(`Backed up to ${file} (${bytes} bytes).`);
    return { file, bytes };
  }
}
