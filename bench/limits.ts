/**
 * Per-client limit benchmarks: what the widget routes' rate limiter costs per load, and
 * its memory.
 *
 *  - Throughput of POST /v1/widget/load with the limiter as it is (a client over its limit
 *    never evicted, unknown keys per address, the limit taken around the key lookup)
 *    against the build before it (BENCH_LIMITS_BEFORE, a git revision; by default the
 *    parent of the commit that brought that limiter), both with limits they never reach,
 *    loaded at once in the same way as below.
 *  - The limiter alone, in this process: a hit on a held key, the limiter before against
 *    the one now (`take` then, `takeHeld` now, which is what a load makes), alternated.
 *  - Throughput of POST /v1/widget/load with the per-client limiter on, against the same
 *    executable with it off (`--rate-widget-per-minute 0 --rate-widget-per-day 0`: the
 *    widget service then takes no limit at all). "On" uses limits the bench never reaches,
 *    so every request is counted and none refused: the cost measured is the client
 *    address, its /64 grouping and the counting. Both servers trust 127.0.0.1 as a proxy
 *    and the wrk script cycles through 10,000 client addresses (half IPv4, half IPv6) in
 *    X-Forwarded-For, so the limiter holds many keys, as in production. Both run on copies
 *    of one database, pinned to the server core and loaded at once by two wrk runs on the
 *    client core (the kernel splits the core between them, so the req/s ratio is their CPU
 *    cost ratio under the same conditions). ROUNDS fresh process pairs, SHARED_RUNS runs each.
 *  - Memory of the limiter with --rate-clients-max (100,000, its default) distinct clients,
 *    with 150,000 (past it), and full of limited clients with 100,000 newcomers refused:
 *    heap growth after a full GC.
 *
 * Runs on its own (`bun bench/limits.ts`) or from `bench/run.ts`. Writes
 * bench/results/limits.json. Tunables (env): BENCH_ROUNDS (default 4), BENCH_SHARED_RUNS
 * (default 3), BENCH_DURATION (s, default 3).
 */
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { compileExecutable } from '../cli/build.ts';
import { clientGroup } from '../src/limits/client-group.ts';
import { createRateLimiter } from '../src/limits/rate-limiter.ts';
import { ORIGIN, signUpWithDomain } from './lib/api.ts';
import { pairedThroughput, ratioRow } from './lib/paired-throughput.ts';
import { hasTaskset, inWorkDir, SERVER_CORE, serveCommand, startListening } from './lib/processes.ts';
import { printTable, progress, resultsHeader, ROOT, writeResults, type BenchResults, type Row } from './lib/report.ts';
import { median, quantile, round1, round3 } from './lib/sampling.ts';
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

export const TARGETS = { throughputRatio: 0.95, againstBefore: 0.97 };

/** The subject of the commit that brought the limiter measured against the build before it. */
const LIMITER_COMMIT = 'Widget limiter: unknown keys count per address, a limited client is never evicted';
const CLIENTS_MAX = 100_000;

function git(args: string[]): string {
  const run = Bun.spawnSync(['git', ...args], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' });
  if (run.exitCode !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr.toString()}`);
  return run.stdout.toString().trim();
}

/** The revision to compare with: BENCH_LIMITS_BEFORE, else the parent of the limiter's commit. */
function beforeRevision(): string {
  const given = process.env.BENCH_LIMITS_BEFORE;
  if (given) return git(['rev-parse', '--verify', `${given}^{commit}`]);
  const found = git(['log', '--format=%H', '-n', '1', '--fixed-strings', `--grep=${LIMITER_COMMIT}`]);
  if (found === '') throw new Error(`no commit "${LIMITER_COMMIT}" in this history: set BENCH_LIMITS_BEFORE`);
  return git(['rev-parse', `${found}^`]);
}

/** The tree at `revision`, extracted into the work folder with this checkout's node_modules. */
function treeAt(work: string, revision: string): string {
  const tree = join(work, 'tree-before');
  mkdirSync(tree);
  const archive = Bun.spawnSync(['sh', '-c', `git archive ${revision} | tar -x -C "${tree}"`], {
    cwd: ROOT,
    stdout: 'pipe',
    stderr: 'pipe',
  });
  if (archive.exitCode !== 0) throw new Error(`git archive ${revision}: ${archive.stderr.toString()}`);
  symlinkSync(join(ROOT, 'node_modules'), join(tree, 'node_modules'));
  return tree;
}

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

/** The limiter as it is against the build before it, both on with limits never reached. */
async function againstBefore(work: string, bins: { now: string; before: string }) {
  // A folder of its own: the on/off comparison below names its data directories alike.
  const folder = join(work, 'against-before');
  mkdirSync(folder);
  const baseDir = join(folder, 'data');
  const apiKey = await makeAccount(bins.before, baseDir);
  const side = (label: 'before' | 'now') => ({
    label,
    command: (dir: string) => serveCommand(bins[label], dir, SIDES.on),
  });
  return pairedThroughput({
    bench: 'limits',
    work: folder,
    baseDir,
    script: writeScript(work, apiKey),
    rounds: ROUNDS,
    sharedRuns: SHARED_RUNS,
    durationS: DURATION_S,
    before: side('before'),
    after: side('now'),
  });
}

interface HeldHits {
  /** What a load does to a held key: `take` before, `takeHeld` now. */
  hit(key: string): unknown;
}

/** ns per hit on 10,000 held keys (the widget's windows, limits never reached), before and now, alternated. */
async function limiterHits(tree: string) {
  type Factory = typeof createRateLimiter;
  const { createRateLimiter: createBefore } = (await import(join(tree, 'src', 'limits', 'rate-limiter.ts'))) as {
    createRateLimiter: Factory;
  };
  const windows = [
    { ms: 60_000, limit: 1_000_000_000 },
    { ms: 86_400_000, limit: 1_000_000_000 },
  ];
  const apiKey = `pk_${'x'.repeat(24)}`;
  const keys = Array.from({ length: CLIENTS }, (_, i) => `${clientGroup(clientAddress(i))} ${apiKey}`);
  const old = createBefore({ windows });
  const current = createRateLimiter({ windows });
  const sides: Record<'before' | 'now', HeldHits> = {
    before: { hit: (key) => old.take(key) },
    now: { hit: (key) => current.takeHeld(key) },
  };
  for (const key of keys) {
    old.take(key);
    current.take(key);
  }
  const OPS = 2_000_000;
  const ns: Record<'before' | 'now', number[]> = { before: [], now: [] };
  for (let round = 0; round < 12; round++) {
    for (const label of round % 2 === 0 ? (['before', 'now'] as const) : (['now', 'before'] as const)) {
      const side = sides[label];
      const started = Bun.nanoseconds();
      for (let i = 0; i < OPS; i++) side.hit(keys[i % CLIENTS] as string);
      ns[label].push((Bun.nanoseconds() - started) / OPS);
    }
  }
  // The first round of each warms the JIT.
  return { before: ns.before.slice(1), now: ns.now.slice(1) };
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

/**
 * Heap growth of the widget limiter (capacity --rate-clients-max) holding `clients`
 * distinct (client, key) pairs; with `limited`, each pair is over its per-minute limit.
 */
function limiterMemory(clients: number, limited = false) {
  const limiter = createRateLimiter({
    windows: [
      { ms: 60_000, limit: limited ? 1 : 120 },
      { ms: 86_400_000, limit: 2_000 },
    ],
    capacity: CLIENTS_MAX,
    // Every pair in one minute, so a limited pair stays limited throughout.
    now: () => 1_795_300_020_000,
  });
  const apiKey = `pk_${'x'.repeat(24)}`;
  Bun.gc(true);
  const before = process.memoryUsage().heapUsed;
  let refused = 0;
  for (let i = 0; i < clients; i++)
    if (limiter.take(`${clientGroup(clientAddress(i * 2 + 1))} ${apiKey}`) !== null) refused++;
  Bun.gc(true);
  const grown = process.memoryUsage().heapUsed - before;
  measured.push(limiter);
  return { clients, keys: limiter.size, refused, mb: grown / 1024 / 1024, bytesPerKey: grown / limiter.size };
}

export async function run(): Promise<BenchResults> {
  if (Bun.which('wrk') === null) throw new Error('wrk is not installed: apt-get install -y wrk');
  return inWorkDir('calc-bench-limits-', async (work) => {
    progress(`limits: ${hasTaskset ? `servers on core ${SERVER_CORE}` : 'taskset absent: unpinned'}`);
    const bin = join(work, 'calc');
    const built = compileExecutable(bin);
    if (!built.ok) throw new Error(`build failed:\n${built.output}`);
    const revision = beforeRevision();
    const tree = treeAt(work, revision);
    const beforeBin = join(work, 'calc-before');
    const builtBefore = compileExecutable(beforeBin, 'cli/bin.ts', tree);
    if (!builtBefore.ok) throw new Error(`build of ${revision} failed:\n${builtBefore.output}`);
    progress(`limits: built the tree and ${revision.slice(0, 7)} (the build before the limiter)`);
    const atCapacity = limiterMemory(CLIENTS_MAX);
    const pastCapacity = limiterMemory(CLIENTS_MAX * 1.5);
    const fullOfLimited = limiterMemory(CLIENTS_MAX * 2, true);
    progress(`limits: ${atCapacity.keys} keys hold ${atCapacity.mb.toFixed(1)} MB`);
    const hits = await limiterHits(tree);
    progress(`limits: a held hit ${median(hits.before).toFixed(1)} ns before, ${median(hits.now).toFixed(1)} ns now`);
    const versus = await againstBefore(work, { now: bin, before: beforeBin });
    const load = await throughput(work, bin);
    const hitNote = (values: number[]) =>
      `median of ${values.length} runs of 2,000,000 hits (middle half ${quantile(values, 0.25).toFixed(1)}–${quantile(values, 0.75).toFixed(1)} ns)`;
    const rows: Row[] = [
      ratioRow(
        'load: throughput with the limiter now / the build before it',
        versus,
        ROUNDS,
        TARGETS.againstBefore,
        `${revision.slice(0, 7)} against this tree, limits on and never reached, both loaded at once on core ${SERVER_CORE}, ${CLIENTS.toLocaleString('en-US')} client addresses in X-Forwarded-For`,
      ),
      {
        metric: 'limiter alone: a hit on a held key, before (take)',
        value: round1(median(hits.before)),
        unit: 'ns',
        target: '',
        pass: null,
        note: hitNote(hits.before),
      },
      {
        metric: 'limiter alone: a hit on a held key, now (takeHeld)',
        value: round1(median(hits.now)),
        unit: 'ns',
        target: '',
        pass: null,
        note: `${hitNote(hits.now)}; now / before ${round3(median(hits.now) / median(hits.before))}×, alternated in one process`,
      },
      ratioRow(
        'load: throughput with the per-client limiter on / off',
        load,
        ROUNDS,
        TARGETS.throughputRatio,
        `same executable, both loaded at once on core ${SERVER_CORE}, ${CLIENTS.toLocaleString('en-US')} client addresses in X-Forwarded-For`,
      ),
      {
        metric: 'limiter memory, 100,000 distinct clients (--rate-clients-max)',
        value: round1(atCapacity.mb),
        unit: 'MB',
        target: '',
        pass: null,
        note: `heap growth after a full GC: ${Math.round(atCapacity.bytesPerKey)} bytes per key (IPv6 /64 and a 27-character key)`,
      },
      {
        metric: 'limiter memory, 150,000 distinct clients (past --rate-clients-max)',
        value: round1(pastCapacity.mb),
        unit: 'MB',
        target: '',
        pass: null,
        note: `${pastCapacity.keys.toLocaleString('en-US')} keys kept: the least recently used under their limits are dropped, memory stays at the capacity's`,
      },
      {
        metric: 'limiter memory, full of limited clients, 100,000 more refused',
        value: round1(fullOfLimited.mb),
        unit: 'MB',
        target: '',
        pass: null,
        note: `${fullOfLimited.keys.toLocaleString('en-US')} limited keys kept, ${fullOfLimited.refused.toLocaleString('en-US')} newcomers refused (429) rather than one of them dropped`,
      },
    ];
    const results: BenchResults = {
      ...resultsHeader('limits'),
      config: { rounds: ROUNDS, sharedRuns: SHARED_RUNS, durationS: DURATION_S, clients: CLIENTS, before: revision },
      rows,
      againstBefore: versus,
      throughput: load,
      limiterHits: hits,
      memory: { atCapacity, pastCapacity, fullOfLimited },
    };
    writeResults('limits', results);
    return results;
  });
}

if (import.meta.main) printTable(await run());
