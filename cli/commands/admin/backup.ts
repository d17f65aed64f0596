import { Args, Flags } from '@oclif/core';
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
  static override flags = {
    data: dataFlag,
    'database-url': Flags.string({
      description: 'the PostgreSQL database a server uses [env: CALC_DATABASE_URL]: back it up with pg_dump instead',
      env: 'CALC_DATABASE_URL',
    }),
  };

  async run() {
    const { args, flags } = await this.parse(Backup);
    // Rows in PostgreSQL are not in the data directory: a copy of it would look like a
    // backup and hold nothing. PostgreSQL's own tools do this job (docs/scaling.md).
    if (flags['database-url'])
      throw new CliFailure(
        'The data lives in PostgreSQL (--database-url / CALC_DATABASE_URL): back it up with pg_dump, e.g. pg_dump --format=custom --file calc.dump "$CALC_DATABASE_URL".',
      );
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
