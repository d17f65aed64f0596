/**
 * Per-client limit benchmarks: what the widget routes' rate limiter costs per load, and
 * its memory.
 *
 *  - Throughput of POST /v1/widget/load with the per-client limiter on, against the same
 *    executable with it off (`--rate-widget-per-minute 0 --rate-widget-per-day 0`: the
 *    widget group then has no concern at all). "On" uses limits the bench never reaches,
 *    so every request is counted and none refused: the cost measured is the client
 *    address, its /64 grouping and the counting. Both servers trust 127.0.0.1 as a proxy
 *    and the wrk script cycles through 10,000 client addresses (half IPv4, half IPv6) in
 *    X-Forwarded-For, so the limiter holds many keys, as in production. Both run on copies
 *    of one database, pinned to the server core and loaded at once by two wrk runs on the
 *    client core (the kernel splits the core between them, so the req/s ratio is their CPU
 *    cost ratio under the same conditions). ROUNDS fresh process pairs, SHARED_RUNS runs each.
 *  - Memory of the limiter with 100,000 distinct clients (its default capacity) and with
 *    150,000 (past it): heap growth after a full GC.
 *
 * Runs on its own (`bun bench/limits.ts`) or from `bench/run.ts`. Writes
 * bench/results/limits.json. Tunables (env): BENCH_ROUNDS (default 4), BENCH_SHARED_RUNS
 * (default 3), BENCH_DURATION (s, default 3).
 */
import { join } from 'node:path';
import { compileExecutable } from '../cli/build.ts';
import { clientGroup } from '../src/limits/client-group.ts';
import { createRateLimiter } from '../src/limits/rate-limiter.ts';
import { ORIGIN, signUpWithDomain } from './lib/api.ts';
import { pairedThroughput, ratioRow } from './lib/paired-throughput.ts';
import { hasTaskset, inWorkDir, SERVER_CORE, serveCommand, startListening } from './lib/processes.ts';
import { printTable, progress, resultsHeader, writeResults, type BenchResults, type Row } from './lib/report.ts';
import { wrkRotationScript } from './lib/wrk.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const SHARED_RUNS = Number(process.env.BENCH_SHARED_RUNS ?? 3);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 3);
const CLIENTS = 10_000;
const HUGE = '1000000000';
const COMMON = ['--quota-free', HUGE, '--rate-signup-per-hour', '0', '--trust-proxy', '127.0.0.1/32'];
const SIDES = {
  off: [...COMMON, '--rate-widget-per-minute', '0', '--rate-widget-per-day', '0'],
  on: [...COMMON, '--rate-widget-per-minute', HUGE, '--rate-widget-per-day', HUGE],
} as const;

export const TARGETS = { throughputRatio: 0.95 };

async function makeAccount(bin: string, dataDir: string): Promise<string> {
  const server = await startListening(serveCommand(bin, dataDir, SIDES.off));
  try {
    return (await signUpWithDomain(server.url)).apiKey;
  } finally {
    await server.stop();
  }
}

/** 10,000 visitors: even ones IPv4, odd ones IPv6 in distinct /64s. */
function clientAddress(i: number): string {
  return i % 2 === 0
    ? `198.${18 + ((i >> 16) & 1)}.${(i >> 8) & 255}.${i & 255}`
    : `2001:db8:${(i >> 8).toString(16)}:${(i & 255).toString(16)}::${(i % 7) + 1}`;
}

function writeScript(work: string, apiKey: string): string {
  const body = JSON.stringify({ apiKey, domain: ORIGIN, calcId: 'bmi' });
  return wrkRotationScript(work, 'limits-load', [
    `  local body = ${JSON.stringify(body)}`,
    `  for i = 0, ${CLIENTS - 1} do`,
    '    local client',
    '    if i % 2 == 0 then',
    `      client = string.format("198.%d.%d.%d", 18 + (math.floor(i / 65536) % 2), math.floor(i / 256) % 256, i % 256)`,
    '    else',
    `      client = string.format("2001:db8:%x:%x::%d", math.floor(i / 256), i % 256, (i % 7) + 1)`,
    '    end',
    `    requests[i + 1] = wrk.format("POST", nil, { ["Content-Type"] = "application/json", ["Origin"] = ${JSON.stringify(ORIGIN)}, ["X-Forwarded-For"] = client }, body)`,
    '  end',
  ]);
}

async function throughput(work: string, bin: string) {
  const baseDir = join(work, 'throughput-data');
  const apiKey = await makeAccount(bin, baseDir);
  const side = (label: keyof typeof SIDES) => ({
    label,
    command: (dir: string) => serveCommand(bin, dir, SIDES[label]),
  });
  return pairedThroughput({
    bench: 'limits',
    work,
    baseDir,
    script: writeScript(work, apiKey),
    rounds: ROUNDS,
    sharedRuns: SHARED_RUNS,
    durationS: DURATION_S,
    before: side('off'),
    after: side('on'),
  });
}

/** Limiters measured, kept alive so a later measurement cannot collect an earlier one's memory. */
const measured: unknown[] = [];

/** Heap growth of the widget limiter holding `clients` distinct (client, key) pairs. */
function limiterMemory(clients: number) {
  const limiter = createRateLimiter({
    windows: [
      { ms: 60_000, limit: 120 },
      { ms: 86_400_000, limit: 2_000 },
    ],
  });
  const apiKey = `pk_${'x'.repeat(24)}`;
  Bun.gc(true);
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < clients; i++) limiter.take(`${clientGroup(clientAddress(i * 2 + 1))} ${apiKey}`);
  Bun.gc(true);
  const grown = process.memoryUsage().heapUsed - before;
  measured.push(limiter);
  return { clients, keys: limiter.size, mb: grown / 1024 / 1024, bytesPerKey: grown / limiter.size };
}

export async function run(): Promise<BenchResults> {
  if (Bun.which('wrk') === null) throw new Error('wrk is not installed: apt-get install -y wrk');
  return inWorkDir('calc-bench-limits-', async (work) => {
    progress(`limits: ${hasTaskset ? `servers on core ${SERVER_CORE}` : 'taskset absent: unpinned'}`);
    const bin = join(work, 'calc');
    const built = compileExecutable(bin);
    if (!built.ok) throw new Error(`build failed:\n${built.output}`);
    const atCapacity = limiterMemory(100_000);
    const pastCapacity = limiterMemory(150_000);
    progress(`limits: ${atCapacity.keys} keys hold ${atCapacity.mb.toFixed(1)} MB`);
    const load = await throughput(work, bin);
    const rows: Row[] = [
      ratioRow(
        'load: throughput with the per-client limiter on / off',
        load,
        ROUNDS,
        TARGETS.throughputRatio,
        `same executable, both loaded at once on core ${SERVER_CORE}, ${CLIENTS.toLocaleString('en-US')} client addresses in X-Forwarded-For`,
      ),
      {
        metric: 'limiter memory, 100,000 distinct clients (its capacity)',
        value: Math.round(atCapacity.mb * 10) / 10,
        unit: 'MB',
        target: '',
        pass: null,
        note: `heap growth after a full GC: ${Math.round(atCapacity.bytesPerKey)} bytes per key (IPv6 /64 and a 27-character key)`,
      },
      {
        metric: 'limiter memory, 150,000 distinct clients (past its capacity)',
        value: Math.round(pastCapacity.mb * 10) / 10,
        unit: 'MB',
        target: '',
        pass: null,
        note: `${pastCapacity.keys.toLocaleString('en-US')} keys kept: the least recently used are dropped, memory stays at the capacity's`,
      },
    ];
    const results: BenchResults = {
      ...resultsHeader('limits'),
      config: { rounds: ROUNDS, sharedRuns: SHARED_RUNS, durationS: DURATION_S, clients: CLIENTS },
      rows,
      throughput: load,
      memory: { atCapacity, pastCapacity },
    };
    writeResults('limits', results);
    return results;
  });
}

if (import.meta.main) printTable(await run());
