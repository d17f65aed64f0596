import { Flags } from '@oclif/core';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { databaseUrl, dataDirFrom } from '../../../src/config.ts';
import { openPostgres } from '../../../src/db/postgres/client.ts';
import { CopyRefused, copySqliteToPostgres } from '../../../src/db/postgres/copy-from-sqlite.ts';
import { BaseCommand, CliFailure } from '../../base-command.ts';
import { dataFlag, openDataDir } from '../../lib/data-dir.ts';

export default class Migrate extends BaseCommand {
  static override summary = "Copy a data directory's SQLite database into an empty PostgreSQL database.";
  static override description =
    'Copies every table in one PostgreSQL transaction, checks the row count of each, and refuses a target that already holds rows. ' +
    "Webhook header values stay encrypted: start the servers with CALC_WEBHOOK_KEY set to the data directory's webhook-key. " +
    'Stop the server on the data directory first, so no write is left behind. Progress goes to standard error.';
  static override examples = [
    '<%= config.bin %> admin migrate --to postgres://calc@db.internal/calc --data /var/lib/calc',
    '<%= config.bin %> admin migrate --to "$CALC_DATABASE_URL" --json',
  ];
  static override flags = {
    to: Flags.string({ description: 'postgres:// URL of the empty target database', required: true }),
    data: dataFlag,
  };

  async run() {
    const { flags } = await this.parse(Migrate);
    const url = databaseUrl(flags.to);
    if (url === null) throw new CliFailure('--to needs a postgres:// URL.');
    const dir = dataDirFrom(flags.data);
    // Opening a missing database would create an empty one and "migrate" nothing.
    if (!existsSync(join(dir, 'calc.db'))) throw new CliFailure(`${dir} holds no calc.db to migrate.`);
    const source = openDataDir(flags.data);
    try {
      const target = await openPostgres(url);
      try {
        const tables = await copySqliteToPostgres(source, target.db, ({ table, copied, total }) => {
          process.stderr.write(`${table}: ${copied}/${total} rows\n`);
        });
        const rows = Object.values(tables).reduce((a, b) => a + b, 0);
        this.log(`Copied ${rows} rows in ${Object.keys(tables).length} tables; every count matches.`);
        this.log(
          `Start the servers with CALC_DATABASE_URL, CALC_JWT_SECRET and CALC_WEBHOOK_KEY="$(cat ${join(dir, 'webhook-key')})".`,
        );
        return { tables, rows, verified: true };
      } catch (error) {
        if (error instanceof CopyRefused) throw new CliFailure(error.message);
        throw error;
      } finally {
        await target.close();
      }
    } finally {
      source.close();
    }
  }
}
