/**
 * Shared shape and printing for bench modules. A bench module exports
 * `async function run(): Promise<BenchResults>` (or anything with `rows`); `bench/run.ts`
 * prints every module's table with `printTable`.
 */
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const ROOT = join(import.meta.dir, '..', '..');
const RESULTS_DIR = join(ROOT, 'bench', 'results');

export interface Row {
  metric: string;
  /** null when it could not be measured (the note says why). */
  value: number | null;
  unit: string;
  /** Human-readable target, e.g. "≥ 0.85"; "" for informational rows. */
  target: string;
  /** null for informational rows. */
  pass: boolean | null;
  note?: string;
}

interface MachineInfo {
  cpus: number;
  cpuModel: string;
  memoryMb: number;
  platform: string;
  bun: string;
  loadAverage?: number[];
}

export interface BenchResults {
  bench: string;
  timestamp: string;
  commit: string | null;
  machine: MachineInfo;
  rows: Row[];
  [extra: string]: unknown;
}

function machineInfo(): MachineInfo {
  return {
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryMb: Math.round(totalmem() / 1024 / 1024),
    platform: `${process.platform}-${process.arch}`,
    bun: Bun.version,
    loadAverage: loadavg().map((n) => Math.round(n * 100) / 100),
  };
}

/** The current commit (read-only git), with "+dirty" when the tree has changes. */
function gitCommit(): string | null {
  try {
    const head = Bun.spawnSync(['git', 'rev-parse', 'HEAD'], { cwd: ROOT, stdout: 'pipe', stderr: 'ignore' });
    if (head.exitCode !== 0) return null;
    const commit = head.stdout.toString().trim();
    const status = Bun.spawnSync(['git', 'status', '--porcelain', '--untracked-files=no'], {
      cwd: ROOT,
      stdout: 'pipe',
      stderr: 'ignore',
    });
    return status.exitCode === 0 && status.stdout.toString().trim() !== '' ? `${commit}+dirty` : commit;
  } catch {
    return null;
  }
}

export { median } from './sampling.ts';

function formatValue(value: number | null, unit: string): string {
  if (value === null || Number.isNaN(value)) return 'n/a';
  const abs = Math.abs(value);
  const digits = abs >= 1000 ? 0 : abs >= 100 ? 1 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3;
  const text = value.toLocaleString('en-US', {
    maximumFractionDigits: digits,
    minimumFractionDigits: unit === '×' ? 2 : 0,
  });
  return unit === '' ? text : unit === '×' ? `${text}×` : `${text} ${unit}`;
}

/** A plain-text table: metric, value, target, pass/fail. */
export function printTable(
  results: { bench?: string; rows: Row[] },
  out: (line: string) => void = (line) => console.log(line),
): void {
  const header = ['metric', 'value', 'target', 'result'];
  const body = results.rows.map((row) => [
    row.metric,
    formatValue(row.value, row.unit),
    row.target,
    row.pass === null ? (row.note ? 'info' : '') : row.pass ? 'PASS' : 'FAIL',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 1 ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join('  ');
  if (results.bench) out(`\n== ${results.bench} ==`);
  out(line(header));
  out(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of body) out(line(row));
  const notes = results.rows.filter((r) => r.note);
  for (const row of notes) out(`  * ${row.metric}: ${row.note}`);
}

/**
 * The fields every bench's results open with: which bench, when, at what commit, on what
 * machine (with `tools`, e.g. the wrk version, added to the machine's description).
 */
export function resultsHeader(
  bench: string,
  tools: Record<string, unknown> = {},
): Pick<BenchResults, 'bench' | 'timestamp' | 'commit' | 'machine'> {
  return { bench, timestamp: new Date().toISOString(), commit: gitCommit(), machine: { ...machineInfo(), ...tools } };
}

export function writeResults(name: string, results: unknown): string {
  const file = join(RESULTS_DIR, `${name}.json`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  return file;
}

/** Progress lines go to stderr so stdout keeps only the tables. */
export function progress(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}
