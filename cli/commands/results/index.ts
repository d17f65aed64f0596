import { Flags } from '@oclif/core';
import type { ResultListBody } from '../../../src/api-bodies.ts';
import { filterQuery, resultFilterFlags, resultsTable } from '../../lib/results.ts';
import { OwnerCommand } from '../../owner-command.ts';

export default class ResultsIndex extends OwnerCommand {
  static override summary = 'What visitors sent from your calculators, newest first.';
  static override description =
    'One line per result: when, its id, the calculator, the page origin, the contact given and the visitor. ' +
    '`calc results get ID` shows one in full. Pages of --limit results: pass the printed cursor to --cursor for older ones. ' +
    'With --json, stdout holds the body of GET /v1/results.';
  static override examples = [
    '<%= config.bin %> results',
    '<%= config.bin %> results --calc mortgage --from 2026-03-01 --to 2026-03-31',
    '<%= config.bin %> results --email jo@example.net --json',
  ];
  static override flags = {
    ...resultFilterFlags,
    limit: Flags.integer({ description: 'results per page, 1–200', min: 1, max: 200, default: 50 }),
    cursor: Flags.string({ description: 'where the previous page ended (its nextCursor)' }),
  };

  async run() {
    const { flags } = await this.parse(ResultsIndex);
    const query = filterQuery(flags);
    query.set('limit', String(flags.limit));
    if (flags.cursor) query.set('cursor', flags.cursor);
    const { body } = await this.api(flags).get<ResultListBody>(`/v1/results?${query}`);
    this.log(body.results.length === 0 ? 'No results.' : resultsTable(body.results));
    if (body.nextCursor) this.log(`More: calc results --cursor ${body.nextCursor}`);
    return body;
  }
}
