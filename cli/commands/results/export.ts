import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { Flags } from '@oclif/core';
import { invalidFlag } from '../../base-command.ts';
import { filterQuery, resultFilterFlags } from '../../lib/results.ts';
import { OwnerCommand } from '../../owner-command.ts';

/** How often the progress line is redrawn at most. */
const PROGRESS_EVERY_MS = 100;
const NEWLINE = 0x0a;

export default class ResultsExport extends OwnerCommand {
  static override summary = 'Export results as CSV or JSON lines, streamed to a file or standard output.';
  static override description =
    'CSV has one column per input and output (docs/results.md, "Exporting"), safe to open in a spreadsheet; JSON lines hold one result per line, as `calc results get` shows it. ' +
    'The export streams: any number of results, a little memory. On a terminal, progress is shown on standard error. ' +
    'The file is created readable by you alone: it holds your visitors’ personal data. ' +
    'With --json (which needs --output), stdout holds a summary: the file, the format, the results and bytes written.';
  static override examples = [
    '<%= config.bin %> results export --output results.csv',
    '<%= config.bin %> results export --format jsonl --calc mortgage --from 2026-03-01 > march.jsonl',
    '<%= config.bin %> results export --email jo@example.net --format jsonl --output jo.jsonl',
  ];
  static override flags = {
    ...resultFilterFlags,
    format: Flags.string({ description: 'csv or jsonl', options: ['csv', 'jsonl'], default: 'csv' }),
    output: Flags.string({
      char: 'o',
      description: 'write to this file (replaced if it exists) instead of standard output',
    }),
  };

  async run() {
    const { flags } = await this.parse(ResultsExport);
    if (this.jsonEnabled() && flags.output === undefined)
      throw invalidFlag('--json needs --output: without it, the export itself goes to standard output.');
    const query = filterQuery(flags);
    query.set('format', flags.format);
    const stream = await this.api(flags).stream(`/v1/results/export?${query}`);
    const file = flags.output === undefined ? null : createWriteStream(flags.output, { mode: 0o600 });
    const out = file ?? process.stdout;
    const progress = process.stderr.isTTY ? progressLine() : null;
    let bytes = 0;
    let lines = 0;
    try {
      for await (const chunk of stream) {
        // The next chunk is read once this one is taken: the server sends no faster than the disk or the pipe.
        if (!out.write(chunk)) await once(out, 'drain');
        bytes += chunk.byteLength;
        for (const byte of chunk) if (byte === NEWLINE) lines++;
        progress?.update(resultsOf(flags.format, lines), bytes);
      }
    } finally {
      if (file) {
        file.end();
        await finished(file);
      }
    }
    const results = resultsOf(flags.format, lines);
    progress?.done(results, bytes);
    if (flags.output !== undefined) this.log(`Exported ${results} results to ${flags.output}.`);
    return { output: flags.output, format: flags.format, results, bytes };
  }
}

/** Lines less the CSV's header. */
const resultsOf = (format: string, lines: number) => (format === 'csv' ? Math.max(0, lines - 1) : lines);

const megabytes = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`;

/** One line on standard error, redrawn in place as the export goes. */
function progressLine() {
  let last = 0;
  const draw = (results: number, bytes: number) =>
    process.stderr.write(`\rExporting: ${results} results, ${megabytes(bytes)}`);
  return {
    update(results: number, bytes: number) {
      const now = performance.now();
      if (now - last < PROGRESS_EVERY_MS) return;
      last = now;
      draw(results, bytes);
    },
    done(results: number, bytes: number) {
      draw(results, bytes);
      process.stderr.write(' — done\n');
    },
  };
}
