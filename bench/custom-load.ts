/**
 * Loading an owner's published calculator against loading a catalogue calculator.
 *
 *  - The compiled executable of the working tree, one process per side, each on its own
 *    copy of one database: an account with its origin and one calculator of its own,
 *    published (a copy of the catalogue's body-fat, so that its load answer is about the
 *    size of bmi's: the difference measured is the work, not the bytes written).
 *  - One side is loaded with POST /v1/widget/load of bmi (a catalogue id: no read beyond the
 *    account's), the other with the owner's calculator (the resolver's cached definition and
 *    answer, checked against the account lookup's token: on SQLite the database's data
 *    version, so a point read only after a commit), both at once on the server core: the
 *    kernel splits the core between them, so the req/s ratio is the ratio of their CPU cost
 *    per load under the very same conditions (docs/performance.md). ROUNDS fresh process
 *    pairs (which starts first alternates), SHARED_RUNS runs each.
 *  - With BENCH_CONTROL=1, the same schedule again with bmi on both sides: the ratio an
 *    unchanged load gets here, i.e. the bench's own noise.
 *
 * Runs on its own (`bun bench/custom-load.ts`) or from `bench/run.ts`. Writes
 * bench/results/custom-load.json. Tunables (env): BENCH_ROUNDS (default 4),
 * BENCH_SHARED_RUNS (default 3), BENCH_DURATION (s, default 3), CALC_BENCH_BIN (use this
 * executable instead of building the current tree).
 */
import { join } from 'node:path';
import { api, ORIGIN, signUpWithDomain } from './lib/api.ts';
import { pairedThroughput, ratioRow } from './lib/paired-throughput.ts';
import {
  binaryRecord,
  hasTaskset,
  inWorkDir,
  prepareBinary,
  serveCommand,
  startListening,
  unreachedLimits,
} from './lib/processes.ts';
import { printTable, progress, resultsHeader, writeResults, type BenchResults, type Row } from './lib/report.ts';
import { median } from './lib/sampling.ts';
import { wrkScript } from './lib/wrk.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const SHARED_RUNS = Number(process.env.BENCH_SHARED_RUNS ?? 3);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 3);
const CONTROL = process.env.BENCH_CONTROL === '1';
const HUGE = '1000000000';
const SERVE_FLAGS = unreachedLimits('free', HUGE);

const CATALOGUE_ID = 'bmi';
/** The owner's calculator: a copy of a template whose load answer is about as long as bmi's. */
const TEMPLATE = 'body-fat';
const OWN_ID = 'my-body-fat';

export const TARGETS = { throughputRatio: 0.97 };

/** The account and its published calculator, made through the API; the key and each load answer's length. */
async function makeData(bin: string, dataDir: string) {
  const server = await startListening(serveCommand(bin, dataDir, SERVE_FLAGS));
  try {
    const { apiKey, token } = await signUpWithDomain(server.url);
    await api(server.url, 'POST', '/v1/account/calculators', { from: TEMPLATE, id: OWN_ID }, token);
    await api(server.url, 'POST', `/v1/account/calculators/${OWN_ID}/publish`, undefined, token);
    const answerBytes = async (calcId: string) => {
      const res = await fetch(`${server.url}/v1/widget/load`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: ORIGIN },
        body: JSON.stringify({ apiKey, domain: ORIGIN, calcId }),
      });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`load of ${calcId} answered ${res.status}: ${body}`);
      return Buffer.byteLength(body);
    };
    return { apiKey, bytes: { catalogue: await answerBytes(CATALOGUE_ID), own: await answerBytes(OWN_ID) } };
  } finally {
    await server.stop();
  }
}

export async function run(): Promise<BenchResults> {
  if (Bun.which('wrk') === null) throw new Error('wrk is not installed: apt-get install -y wrk');
  return inWorkDir('calc-bench-custom-load-', async (work) => {
    const binary = prepareBinary(work);
    progress(
      `custom-load: executable ${binary.path} (${binary.note}); taskset ${hasTaskset ? 'yes' : 'absent: unpinned'}`,
    );
    const baseDir = join(work, 'data');
    const { apiKey, bytes } = await makeData(binary.path, baseDir);
    const script = (calcId: string) =>
      wrkScript(work, `load-${calcId}`, JSON.stringify({ apiKey, domain: ORIGIN, calcId }));
    const side = (label: string, calcId: string) => ({
      label,
      command: (dir: string) => serveCommand(binary.path, dir, SERVE_FLAGS),
      script: script(calcId),
    });
    const load = await pairedThroughput({
      bench: 'custom-load',
      work,
      baseDir,
      script: script(CATALOGUE_ID),
      rounds: ROUNDS,
      sharedRuns: SHARED_RUNS,
      durationS: DURATION_S,
      before: side('catalogue', CATALOGUE_ID),
      after: side('own', OWN_ID),
    });
    const control = CONTROL
      ? await pairedThroughput({
          bench: 'custom-load control',
          work: join(work, 'control'),
          baseDir,
          script: script(CATALOGUE_ID),
          rounds: ROUNDS,
          sharedRuns: SHARED_RUNS,
          durationS: DURATION_S,
          before: side('catalogue', CATALOGUE_ID),
          after: side('catalogue again', CATALOGUE_ID),
        })
      : undefined;
    const rows: Row[] = [
      ratioRow(
        `load throughput: an owner's published calculator (${OWN_ID}) / a catalogue calculator (${CATALOGUE_ID})`,
        load,
        ROUNDS,
        TARGETS.throughputRatio,
        `two processes of one executable on copies of one database, both loaded at once on the server core`,
      ),
      {
        metric: 'load answer: owner’s / catalogue’s',
        value: Math.round((bytes.own / bytes.catalogue) * 1000) / 1000,
        unit: '×',
        target: '',
        pass: null,
        note: `${bytes.own} vs ${bytes.catalogue} bytes of JSON (without pre-fill values)`,
      },
    ];
    if (control)
      rows.push({
        ...ratioRow(`control: ${CATALOGUE_ID} / ${CATALOGUE_ID}`, control, ROUNDS, TARGETS.throughputRatio, 'A/A'),
        target: '',
        pass: null,
      });
    const results: BenchResults = {
      ...resultsHeader('custom-load', { taskset: hasTaskset }),
      rows,
      config: { rounds: ROUNDS, sharedRuns: SHARED_RUNS, durationS: DURATION_S, control: CONTROL },
      binary: binaryRecord(binary),
      answerBytes: bytes,
      ratios: load.ratios,
      ...(control ? { controlRatios: control.ratios } : {}),
      rps: load.rps,
      medianRps: Object.fromEntries(Object.entries(load.rps).map(([label, values]) => [label, median(values)])),
    };
    const file = writeResults('custom-load', results);
    progress(`custom-load: wrote ${file}`);
    return results;
  });
}

if (import.meta.main) {
  const results = await run();
  printTable(results);
}
