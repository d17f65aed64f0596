import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { compileExecutable } from '../../cli/build.ts';

export const ROOT = join(import.meta.dir, '..', '..');
const BUN = process.execPath;
const COMPILED = join(ROOT, 'dist', 'calc');
export const SOURCE_CLI = [BUN, join(ROOT, 'cli', 'bin.ts')];

/**
 * Starts `calc serve --port 0` (the compiled executable or the sources) and waits for
 * the line that says where it listens. Stopped with SIGTERM at the end of the scope.
 */
export async function startServe(command: string[], args: string[], env: Record<string, string> = {}) {
  const proc = Bun.spawn([...command, 'serve', '--port', '0', ...args], {
    env: { ...process.env, ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const stdout = proc.stdout.getReader();
  let seen = '';
  const decoder = new TextDecoder();
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${seen}`)), 15_000);
    (async () => {
      for (;;) {
        const { done, value } = await stdout.read();
        if (done) break;
        seen += decoder.decode(value);
        const match = /http:\/\/[^\s]+:\d+/.exec(seen);
        if (match) {
          clearTimeout(timer);
          resolve(match[0]);
          return;
        }
      }
      clearTimeout(timer);
      reject(new Error(`server exited before listening: ${seen}`));
    })();
  });
  // Keep draining stdout so the child never blocks on a full pipe.
  const rest = (async () => {
    for (;;) {
      const { done, value } = await stdout.read();
      if (done) return;
      seen += decoder.decode(value);
    }
  })();
  const stderrText = new Response(proc.stderr).text();
  return {
    url,
    proc,
    stdout: () => seen,
    /** SIGTERM and wait; returns the exit code and the structured log lines. */
    async stop(): Promise<{ exitCode: number | null; stderr: string }> {
      proc.kill('SIGTERM');
      const exitCode = await proc.exited;
      await rest;
      return { exitCode, stderr: await stderrText };
    },
    async [Symbol.asyncDispose]() {
      if (proc.exitCode === null) {
        proc.kill('SIGTERM');
        await proc.exited;
      }
    },
  };
}

/** Runs a CLI command to completion and returns its output and exit code. */
export async function runCommand(
  command: string[],
  args: string[],
  options: { env?: Record<string, string>; stdin?: string } = {},
) {
  const proc = Bun.spawn([...command, ...args], {
    env: { ...process.env, ...options.env },
    stdin: options.stdin === undefined ? 'ignore' : new TextEncoder().encode(options.stdin),
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [stdout, stderr, exitCode] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { stdout, stderr, exitCode };
}

/**
 * Builds `dist/calc` when it is missing or older than the sources, so e2e tests always
 * run the executable of the code under test.
 */
export async function ensureCompiled(): Promise<string> {
  const newest = newestSourceMtime();
  if (!existsSync(COMPILED) || statSync(COMPILED).mtimeMs < newest) {
    const build = compileExecutable(COMPILED);
    if (!build.ok) throw new Error(`build failed:\n${build.output}`);
  }
  return COMPILED;
}

function newestSourceMtime(): number {
  let newest = 0;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (!existsSync(path)) continue;
      else newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  for (const dir of ['src', 'cli', 'widget', 'dashboard', 'migrations']) walk(join(ROOT, dir));
  newest = Math.max(newest, statSync(join(ROOT, 'package.json')).mtimeMs);
  return newest;
}

/** One JSON request to a running server (with a bearer token when given): its status, parsed body and headers. */
export async function callJson(base: string, method: string, path: string, body?: unknown, token?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined, headers: res.headers };
}

/** Waits until something accepts connections on `hostname:port`, or fails when `proc` ends first. */
export async function listeningOn(hostname: string, port: number, proc: Bun.Subprocess): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`the program exited with ${proc.exitCode}`);
    try {
      const socket = await Bun.connect({ hostname, port, socket: { data() {} } });
      socket.end();
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`nothing listens on ${hostname}:${port}`);
      await Bun.sleep(25);
    }
  }
}
