/** wrk: Lua scripts for the widget API, runs pinned to the client core, output parsing. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ORIGIN } from './api.ts';
import { CLIENT_CORE, pinned, track, untrack } from './processes.ts';
import { cpuSecondsOf, machineBusySeconds } from './proc-stats.ts';
import { round2 } from './sampling.ts';

/** wrk connections (one thread). */
export const CONNECTIONS = 32;

export interface WrkResult {
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  socketErrors: string | null;
  /** CPU used by other processes on the machine during the measurement, in cores. */
  interferenceCores?: number;
  /** Server CPU time (all threads, user + system) per answered request, in µs. */
  serverCpuUsPerRequest?: number;
}

/**
 * A wrk script that POSTs JSON with the Origin of a browser on ORIGIN (the Origin check
 * runs on every request): one body every time, or the given bodies in turn. `contentType`:
 * what a browser would send instead (`text/plain` for the widget's calls).
 */
export function wrkScript(
  dir: string,
  name: string,
  body: string | string[],
  contentType = 'application/json',
): string {
  const file = join(dir, `${name}.lua`);
  const lines =
    typeof body === 'string'
      ? [
          'wrk.method = "POST"',
          `wrk.body = ${JSON.stringify(body)}`,
          `wrk.headers["Content-Type"] = ${JSON.stringify(contentType)}`,
          `wrk.headers["Origin"] = ${JSON.stringify(ORIGIN)}`,
        ]
      : [
          'wrk.method = "POST"',
          'wrk.headers["Content-Type"] = "application/json"',
          `wrk.headers["Origin"] = ${JSON.stringify(ORIGIN)}`,
          `local bodies = { ${body.map((b) => JSON.stringify(b)).join(', ')} }`,
          'local i = 0',
          'request = function()',
          '  i = i % #bodies + 1',
          '  return wrk.format(nil, nil, nil, bodies[i])',
          'end',
        ];
  writeFileSync(file, [...lines, ''].join('\n'));
  return file;
}

/**
 * A wrk script whose `init` fills `requests` (1 to n) with the given Lua lines, each a
 * request made once by wrk.format; the requests are then sent in turn.
 */
export function wrkRotationScript(dir: string, name: string, init: string[]): string {
  const file = join(dir, `${name}.lua`);
  writeFileSync(
    file,
    [
      'local requests = {}',
      'init = function(args)',
      ...init,
      'end',
      'local i = 0',
      'request = function()',
      '  i = i % #requests + 1',
      '  return requests[i]',
      'end',
      '',
    ].join('\n'),
  );
  return file;
}

function toMs(text: string): number {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (!match) return Number.NaN;
  const n = Number(match[1]);
  return match[2] === 'us' ? n / 1000 : match[2] === 'ms' ? n : match[2] === 's' ? n * 1000 : n * 60_000;
}

function parseWrk(output: string): WrkResult {
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(output);
  if (!rps) throw new Error(`could not read wrk output:\n${output}`);
  const pct = (p: string) => toMs(new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm').exec(output)?.[1] ?? '');
  return {
    requestsPerSec: Number(rps[1]),
    p50Ms: pct('50'),
    p99Ms: pct('99'),
    requests: Number(/(\d+) requests in/.exec(output)?.[1] ?? Number.NaN),
    non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(output)?.[1] ?? 0),
    socketErrors: /Socket errors:.*$/m.exec(output)?.[0] ?? null,
  };
}

/** What to record during a measured wrk run. */
export interface WrkWatch {
  /** The server: its CPU per request is recorded. */
  serverPid: number;
  /** Other processes of the bench (e.g. a webhook target): their CPU is not interference. */
  helperPids?: number[];
  /** Count irq + softirq time as machine busy time (see machineBusySeconds). */
  countIrq?: boolean;
  /** Rounding of serverCpuUsPerRequest (default 2 decimals). */
  roundCpu?: (n: number) => number;
}

/**
 * Runs wrk pinned to the client core. With `watch`, records the server's CPU per request
 * and the cores other processes used meanwhile (machine busy time minus the server, the
 * helpers, wrk and this process). Non-2xx answers mean a wrong set-up: it throws.
 */
export async function wrk(url: string, script: string, seconds: number, watch?: WrkWatch): Promise<WrkResult> {
  const helpers = watch?.helperPids ?? [];
  const busy0 = watch ? machineBusySeconds(watch.countIrq) : 0;
  const server0 = watch ? cpuSecondsOf(watch.serverPid) : 0;
  const helpers0 = helpers.map(cpuSecondsOf);
  const own0 = process.cpuUsage();
  const wall0 = performance.now();
  const proc = Bun.spawn(
    pinned(CLIENT_CORE, [
      'wrk',
      '-t1',
      `-c${CONNECTIONS}`,
      `-d${Math.max(1, Math.round(seconds))}s`,
      '--latency',
      '-s',
      script,
      url,
    ]),
    {
      stdout: 'pipe',
      stderr: 'pipe',
    },
  );
  track(proc);
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  untrack(proc);
  const wall = (performance.now() - wall0) / 1000;
  if (code !== 0) throw new Error(`wrk exited ${code}: ${err}${out}`);
  const result = parseWrk(out);
  if (result.non2xx > 0)
    throw new Error(`wrk got ${result.non2xx} non-2xx answers from ${url}: the bench setup is wrong`);
  if (watch) {
    const serverCpu = cpuSecondsOf(watch.serverPid) - server0;
    const helperCpu = helpers.reduce((sum, pid, i) => sum + cpuSecondsOf(pid) - (helpers0[i] ?? 0), 0);
    const wrkCpu = Number(proc.resourceUsage()?.cpuTime.total ?? 0n) / 1e6;
    const own = process.cpuUsage(own0);
    const ours = serverCpu + helperCpu + wrkCpu + (own.user + own.system) / 1e6;
    result.serverCpuUsPerRequest = (watch.roundCpu ?? round2)((serverCpu * 1e6) / result.requests);
    result.interferenceCores = round2(Math.max(0, (machineBusySeconds(watch.countIrq) - busy0 - ours) / wall));
  }
  return result;
}

export function wrkVersion(): string {
  const out = Bun.spawnSync(['wrk', '--version'], { stdout: 'pipe', stderr: 'pipe' });
  return /wrk (\S+)/.exec(out.stdout.toString() + out.stderr.toString())?.[1] ?? 'unknown';
}
