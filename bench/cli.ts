/**
 * CLI start-up benchmark: how long the compiled executable takes to start, answer and exit.
 *
 *  - `calc --help`: process start to exit of the compiled executable (oclif loads the
 *    command map and renders help; no network).
 *  - `calc domains --json`: start to exit against a local server (token from CALC_TOKEN),
 *    i.e. start-up plus one authenticated HTTP round trip.
 *
 * Each is run WARMUP times, then RUNS times alternating; the median is compared with the
 * 60 ms target. Runs on its own (`bun bench/cli.ts`) or from a runner that calls `run()`.
 * Writes bench/results/cli.json. Tunables (env): BENCH_CLI_RUNS (default 25),
 * CALC_BENCH_BIN (use this executable instead of building the current tree).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { binaryRecord, prepareBinary, serveCommand, startListening, type BinaryRecord } from './lib/processes.ts';
import { quantile, round2 } from './lib/sampling.ts';
import { signUpWithDomain } from './lib/api.ts';
import {
  median,
  printTable,
  progress,
  resultsHeader,
  writeResults,
  type BenchResults,
  type Row,
} from './lib/report.ts';

const RUNS = Math.max(20, Number(process.env.BENCH_CLI_RUNS ?? 25));
const WARMUP = 3;
const TARGET_MS = 60;

export interface CliResults extends BenchResults {
  binary: BinaryRecord;
  runsMs: Record<string, number[]>;
}

export async function run(): Promise<CliResults> {
  const work = mkdtempSync(join(tmpdir(), 'calc-bench-cli-'));
  let stopServer: (() => Promise<unknown>) | null = null;
  try {
    const binary = prepareBinary(work);
    progress(`cli: executable ${binary.path} (${binary.note})`);
    const server = await startListening(serveCommand(binary.path, join(work, 'data')));
    stopServer = server.stop;
    const { token } = await signUpWithDomain(server.url);
    const env = {
      ...process.env,
      CALC_API_URL: server.url,
      CALC_TOKEN: token,
      CALC_CONFIG_DIR: join(work, 'config'),
      NO_COLOR: '1',
    };

    const cases: Record<string, string[]> = { 'calc --help': ['--help'], 'calc domains --json': ['domains', '--json'] };
    const runsMs: Record<string, number[]> = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
    for (let i = 0; i < WARMUP; i++) for (const args of Object.values(cases)) await timeOnce(binary.path, args, env);
    // Alternating, so a slow moment of the machine hits both cases alike.
    for (let i = 0; i < RUNS; i++) {
      for (const [name, args] of Object.entries(cases)) runsMs[name]?.push(await timeOnce(binary.path, args, env));
    }

    const rows: Row[] = [];
    for (const [name, runs] of Object.entries(runsMs)) {
      const value = round2(median(runs));
      rows.push({
        metric: `${name}: median of ${runs.length}`,
        value,
        unit: 'ms',
        target: `≤ ${TARGET_MS} ms`,
        pass: value <= TARGET_MS,
      });
      rows.push({
        metric: `${name}: min / p90`,
        value: round2(Math.min(...runs)),
        unit: 'ms',
        target: '',
        pass: null,
        note: `p90 ${round2(quantile(runs, 0.9))} ms`,
      });
    }
    const results: CliResults = {
      ...resultsHeader('cli'),
      rows,
      binary: binaryRecord(binary),
      runsMs,
    };
    writeResults('cli', results);
    return results;
  } finally {
    await stopServer?.().catch(() => {});
    rmSync(work, { recursive: true, force: true });
  }
}

/** One run, spawn to exit; a failing command would make the figure meaningless. */
async function timeOnce(bin: string, args: string[], env: Record<string, string | undefined>): Promise<number> {
  const started = performance.now();
  const proc = Bun.spawn([bin, ...args], { env, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
  const [stdout, exitCode] = await Promise.all([new Response(proc.stdout).arrayBuffer(), proc.exited]);
  const elapsed = performance.now() - started;
  if (exitCode !== 0)
    throw new Error(`${args.join(' ')} exited ${exitCode}: ${await new Response(proc.stderr).text()}`);
  if (stdout.byteLength === 0) throw new Error(`${args.join(' ')} printed nothing`);
  return elapsed;
}

if (import.meta.main) {
  const results = await run();
  printTable(results);
}
