/** Child processes of the benches: pinning to a core, servers that print their URL, the executable under test. */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Subprocess } from 'bun';
import { progress, ROOT } from './report.ts';
import { compileExecutable } from '../../cli/build.ts';

/** The server under test runs here … */
export const SERVER_CORE = '1';
/** … and wrk (and other load generators) here. */
export const CLIENT_CORE = '0';
export const hasTaskset = Bun.which('taskset') !== null;

export function pinned(core: string, command: string[]): string[] {
  return hasTaskset ? ['taskset', '-c', core, ...command] : command;
}

/**
 * A plan's quota and the per-client widget limits at `n`, a number a bench's own loads never
 * reach: the checks still run on every load, none refuses one.
 */
export function unreachedLimits(plan: 'free' | 'extra', n: number | string): string[] {
  return [`--quota-${plan}`, String(n), '--rate-widget-per-minute', String(n), '--rate-widget-per-day', String(n)];
}

/** `bin serve` on a free port with its data in `dataDir`, then the `extra` flags. */
export function serveCommand(bin: string, dataDir: string, extra: readonly string[] = []): string[] {
  return [bin, 'serve', '--port', '0', '--data', dataDir, ...extra];
}

const children = new Set<Subprocess>();

/** Children still running when this process exits are killed. */
export function track(proc: Subprocess): void {
  children.add(proc);
}
export function untrack(proc: Subprocess): void {
  children.delete(proc);
}
export function killAll(): void {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
}
process.once('exit', killAll);

export interface Started {
  url: string;
  proc: Subprocess<'ignore', 'pipe', 'ignore' | number>;
  stop(): Promise<number | null>;
}

export interface StartOptions {
  env?: Record<string, string>;
  /** The child's stderr goes here (ignored otherwise). */
  stderrFile?: string;
  timeoutMs?: number;
}

/** Spawns a process that prints `http://host:port` on stdout once it listens. */
export async function startListening(command: string[], options: StartOptions = {}): Promise<Started> {
  const proc = Bun.spawn(command, {
    cwd: ROOT,
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: options.stderrFile ? Bun.file(options.stderrFile) : 'ignore',
    env: { ...process.env, NO_COLOR: '1', ...options.env },
  }) as unknown as Subprocess<'ignore', 'pipe', 'ignore' | number>;
  track(proc);
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  let seen = '';
  const timer = setTimeout(() => proc.kill('SIGKILL'), options.timeoutMs ?? 15_000);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) throw new Error(`${command.join(' ')} exited before listening (code ${proc.exitCode}): ${seen}`);
      seen += decoder.decode(value, { stream: true });
      const match = /http:\/\/[^\s]+:\d+/.exec(seen);
      if (match) {
        // Keep draining stdout so the child never blocks on a full pipe.
        void (async () => {
          for (;;) if ((await reader.read()).done) return;
        })().catch(() => {});
        return {
          url: match[0],
          proc,
          async stop() {
            if (proc.exitCode === null) proc.kill('SIGTERM');
            const kill = setTimeout(() => proc.kill('SIGKILL'), 5000);
            const code = await proc.exited;
            clearTimeout(kill);
            untrack(proc);
            return code;
          },
        };
      }
    }
  } finally {
    clearTimeout(timer);
  }
}

/** Runs a command to its end; stdout, stderr and the exit code. */
export async function runToEnd(command: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  const proc = Bun.spawn(command, { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' });
  track(proc);
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  untrack(proc);
  return { stdout, stderr, code };
}

export interface Binary {
  path: string;
  built: boolean;
  note: string;
}

/** What a results file says of the executable: how it was made, not the temp path it had. */
export type BinaryRecord = Omit<Binary, 'path'>;
export const binaryRecord = ({ built, note }: Binary): BinaryRecord => ({ built, note });

/**
 * Builds the current tree into a temp dir (cli/build.ts, without touching
 * dist/), so the bench measures the code in the tree; falls back to dist/calc.
 * CALC_BENCH_BIN names an executable to use instead.
 */
export function prepareBinary(workDir: string): Binary {
  const override = process.env.CALC_BENCH_BIN;
  if (override) return { path: override, built: false, note: 'CALC_BENCH_BIN' };
  const out = join(workDir, 'calc');
  const build = compileExecutable(out);
  if (build.ok && existsSync(out)) {
    return { path: out, built: true, note: `built from the working tree in ${build.ms} ms (cli/build.ts)` };
  }
  const dist = join(ROOT, 'dist', 'calc');
  if (!existsSync(dist)) throw new Error(`could not build the executable and dist/calc is missing:\n${build.output}`);
  const note = `build of the working tree failed; measured dist/calc from ${statSync(dist).mtime.toISOString()}`;
  progress(`${note}\n${build.output.slice(0, 2000)}`);
  return { path: dist, built: false, note };
}

/** Runs `body` in a fresh temporary folder whose name starts with `prefix`, and removes the folder afterwards. */
export async function inWorkDir<T>(prefix: string, body: (work: string) => Promise<T>): Promise<T> {
  const work = mkdtempSync(join(tmpdir(), prefix));
  try {
    return await body(work);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
