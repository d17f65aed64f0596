/**
 * Server benchmarks: the widget routes against a bare `Bun.serve` baseline, cold start
 * and memory.
 *
 *  - POST /v1/widget/load and /v1/widget/verify of the compiled executable versus the raw
 *    `Bun.serve` baseline (bench/raw-server.ts) on a copy of the same database: wrk pinned
 *    to core 0, servers pinned to core 1. Every round starts a fresh raw and a fresh
 *    product process and warms both.
 *  - Throughput (the target): both servers loaded at once on their shared core (two wrk
 *    runs in parallel), SHARED_RUNS times per route and round. The kernel splits the core
 *    between them, so the req/s ratio is the ratio of their CPU cost per request under the
 *    very same conditions. This VM's speed swings by ±20% from one second to the next
 *    (other tenants); measured one after the other, two identical raw servers differ by
 *    0.67–1.25× per process pair (the A/A control below), measured at once by 0.96–1.07×.
 *  - p99 (the target) and each side's req/s: PAIRS A/B pairs per route and round, each
 *    server loaded alone (order alternating, each measurement preceded by a warm-up); the
 *    medians of the per-pair ratios, also reported for throughput.
 *  - The baseline does the per-client widget limit too (app work the product must do, see
 *    bench/raw-server.ts); a third process, the baseline without it (`--no-limit`), is
 *    loaded at once with the product the same way, for the ratio against a bare route.
 *  - With BENCH_CONTROL=1, each round also starts a second raw process and measures raw
 *    against raw on the same schedule: the ratio an unchanged server gets here, i.e. the
 *    bench's own noise.
 *  - Cold start of `calc serve --port 0` to the first 200 on /healthz (median of 15).
 *  - Idle RSS after start, and RSS of one process after 200k widget loads.
 *
 * Runs on its own (`bun bench/server.ts`) or from `bench/run.ts`. Writes
 * bench/results/server.json. Tunables (env): BENCH_ROUNDS (fresh process pairs, default
 * 6), BENCH_PAIRS (A/B pairs per route and round, default 2), BENCH_SHARED_RUNS
 * (both-at-once runs per route and round, default 3), BENCH_DURATION (s, default 3),
 * BENCH_WARMUP (s, default 0.5), BENCH_CONTROL (1: A/A control), BENCH_COLD_RUNS (default
 * 15), BENCH_LOADS (default 200000), CALC_BENCH_BIN (use this executable instead of
 * building the current tree), BENCH_OUT (results file name, default server).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signUpWithDomain, widgetBody, widgetCall } from './lib/api.ts';
import { copyDataDir } from './lib/data-dir.ts';
import {
  CLIENT_CORE,
  hasTaskset,
  killAll,
  pinned,
  prepareBinary,
  SERVER_CORE,
  serveCommand,
  unreachedLimits,
  startListening,
  binaryRecord,
  type BinaryRecord,
  type Started,
} from './lib/processes.ts';
import { memoryOf, waitForQuiet as waitForQuietMachine } from './lib/proc-stats.ts';
import { printTable, progress, resultsHeader, ROOT, writeResults, type BenchResults, type Row } from './lib/report.ts';
import { MAX_INTERFERENCE, median, quantile, round1, round2, sleep } from './lib/sampling.ts';
import { CONNECTIONS, wrk as runWrk, wrkScript, wrkVersion, type WrkResult } from './lib/wrk.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const PAIRS = Number(process.env.BENCH_PAIRS ?? 2);
const SHARED_RUNS = Number(process.env.BENCH_SHARED_RUNS ?? 3);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 3);
const WARMUP_S = Number(process.env.BENCH_WARMUP ?? 0.5);
/** A fresh process's first seconds under load (JIT tiers): never measured. */
const FIRST_CONTACT_S = 2;
const CONTROL = process.env.BENCH_CONTROL === '1';
const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? 15);
const LOADS_FOR_RSS = Number(process.env.BENCH_LOADS ?? 200_000);
/** Before each A/B pair, wait up to this long for the machine to be quiet. */
const QUIET_WAIT_MS = Number(process.env.BENCH_QUIET_WAIT_MS ?? 5000);
const QUOTA = 100_000_000;
const ROUTES = ['load', 'verify'] as const;
type Route = (typeof ROUTES)[number];

export const TARGETS = {
  throughputRatio: 0.87,
  p99Ratio: 1.5,
  coldStartMs: 100,
  idleRssMb: 70,
  loadedRssMb: 120,
};

/** One A/B pair: the baseline and the measured side, seconds apart, in one round. */
interface Pair {
  round: number;
  raw: WrkResult;
  product: WrkResult;
  interference: number;
}

interface Comparison {
  pairs: Pair[];
  medians: ReturnType<typeof summarise>;
  /** Control only: raw/raw req/s with both loaded at once, SHARED_RUNS per round. */
  sharedCore?: number[];
}

export interface ServerResults extends BenchResults {
  config: Record<string, unknown>;
  binary: BinaryRecord;
  routes: Record<string, Comparison>;
  /** Per route: product/raw req/s with both loaded at once on the server core (the throughput figure), SHARED_RUNS per round. */
  sharedCore: Record<string, number[]>;
  /** Per route: product / the baseline without the per-client limit, both at once. */
  bareSharedCore: Record<string, number[]>;
  /** BENCH_CONTROL: raw against a second raw process (`product` holds the second raw). */
  control?: Record<string, Comparison>;
  coldStart: { runsMs: number[]; firstStartOnEmptyDirMs: number[]; idleRssMb: number[] };
  loaded: { loads: number; rssMb: number; peakRssMb: number };
}

/**
 * wrk as this bench has always measured: machine busy time with irq + softirq, server CPU
 * per request to 0.1 µs; interference and server CPU only when the server's pid is given.
 */
function wrk(url: string, script: string, seconds: number, serverPid?: number): Promise<WrkResult> {
  return runWrk(url, script, seconds, serverPid ? { serverPid, countIrq: true, roundCpu: round1 } : undefined);
}

/** Waits for a quiet machine before a pair (BENCH_QUIET_WAIT_MS); busy time with irq. */
function waitForQuiet(): Promise<number> {
  return waitForQuietMachine(QUIET_WAIT_MS, MAX_INTERFERENCE, true);
}

/** Medians of a comparison's pairs: the per-pair ratios, and each side on its own. */
function summarise(pairs: Pair[]) {
  const rps = pairs.map((p) => p.product.requestsPerSec / p.raw.requestsPerSec);
  const p99 = pairs.map((p) => p.product.p99Ms / p.raw.p99Ms);
  return {
    rawRps: median(pairs.map((p) => p.raw.requestsPerSec)),
    productRps: median(pairs.map((p) => p.product.requestsPerSec)),
    rawP99Ms: median(pairs.map((p) => p.raw.p99Ms)),
    productP99Ms: median(pairs.map((p) => p.product.p99Ms)),
    rawP50Ms: median(pairs.map((p) => p.raw.p50Ms)),
    productP50Ms: median(pairs.map((p) => p.product.p50Ms)),
    pairedThroughputRatio: median(rps),
    throughputRatioQ1: quantile(rps, 0.25),
    throughputRatioQ3: quantile(rps, 0.75),
    pairedP99Ratio: median(p99),
    rawCpuUsPerRequest: median(pairs.map((p) => p.raw.serverCpuUsPerRequest ?? Number.NaN)),
    productCpuUsPerRequest: median(pairs.map((p) => p.product.serverCpuUsPerRequest ?? Number.NaN)),
  };
}

/** Per-round medians of the throughput ratio: how much one process pair differs from another. */
function perRound(pairs: Pair[]): string {
  const rounds = [...new Set(pairs.map((p) => p.round))];
  return rounds
    .map((r) =>
      median(pairs.filter((p) => p.round === r).map((p) => p.product.requestsPerSec / p.raw.requestsPerSec)).toFixed(2),
    )
    .join(', ');
}

// ── cold start ───────────────────────────────────────────────────────────────

async function coldStart(bin: string, dataDir: string, idleWaitMs: number): Promise<{ ms: number; idleRssMb: number }> {
  const started = performance.now();
  const server = await startListening(serveCommand(bin, dataDir));
  let ms = Number.NaN;
  for (let attempt = 0; attempt < 200; attempt++) {
    try {
      const res = await fetch(`${server.url}/healthz`);
      await res.arrayBuffer();
      if (res.status === 200) {
        ms = performance.now() - started;
        break;
      }
    } catch {
      // not accepting yet
    }
    await sleep(1);
  }
  let idleRssMb = Number.NaN;
  if (idleWaitMs > 0) {
    await sleep(idleWaitMs);
    idleRssMb = memoryOf(server.proc.pid).rssMb;
  }
  await server.stop();
  return { ms, idleRssMb };
}

// ── the bench ────────────────────────────────────────────────────────────────

export async function run(): Promise<ServerResults> {
  if (Bun.which('wrk') === null) throw new Error('wrk is not installed: apt-get install -y wrk');
  const work = mkdtempSync(join(tmpdir(), 'calc-bench-server-'));
  const running = new Set<Started>();
  const start = async (command: string[], log: string): Promise<Started> => {
    const started = await startListening(pinned(SERVER_CORE, command), { stderrFile: join(work, log) });
    running.add(started);
    return started;
  };
  const stop = async (started: Started): Promise<void> => {
    running.delete(started);
    await started.stop();
  };
  try {
    const binary = prepareBinary(work);
    progress(
      `server: executable ${binary.path} (${binary.note}); taskset ${hasTaskset ? `server core ${SERVER_CORE}, wrk core ${CLIENT_CORE}` : 'absent: unpinned'}`,
    );

    // The product's data: an account with its origin, made through the API. Its quota and
    // its per-client widget limits (given on every start) are ones that the loads of this
    // bench, all from one address with one key, never reach: the limiter still runs.
    const productDir = join(work, 'product-data');
    const productCommand = serveCommand(binary.path, productDir, unreachedLimits('free', QUOTA));
    const setup = await start(productCommand, 'product-setup.log');
    const { apiKey } = await signUpWithDomain(setup.url);
    await stop(setup);

    // The baseline runs on a consistent copy of the same database file.
    const rawDirs = CONTROL ? ['raw-data', 'raw-bare-data', 'raw-control-data'] : ['raw-data', 'raw-bare-data'];
    for (const dir of rawDirs) copyDataDir(productDir, join(work, dir));
    const rawCommand = (dir: string, ...flags: string[]) => [
      process.execPath,
      join(ROOT, 'bench', 'raw-server.ts'),
      join(work, dir),
      '--quota',
      String(QUOTA),
      ...flags,
    ];

    const body = widgetBody(apiKey);
    const scripts = Object.fromEntries(ROUTES.map((route) => [route, wrkScript(work, route, body)])) as Record<
      Route,
      string
    >;
    const pairs = Object.fromEntries(ROUTES.map((route) => [route, [] as Pair[]])) as Record<Route, Pair[]>;
    const sharedCore = Object.fromEntries(ROUTES.map((route) => [route, [] as number[]])) as Record<Route, number[]>;
    const bareShared = Object.fromEntries(ROUTES.map((route) => [route, [] as number[]])) as Record<Route, number[]>;
    const controlShared = Object.fromEntries(ROUTES.map((route) => [route, [] as number[]])) as Record<Route, number[]>;
    const controlPairs = Object.fromEntries(ROUTES.map((route) => [route, [] as Pair[]])) as Record<Route, Pair[]>;

    /** PAIRS A/B pairs of `a` (the baseline) and `b` on one route, order alternating. */
    const measurePairs = async (round: number, route: Route, a: Started, b: Started, into: Pair[], label: string) => {
      const url = (s: Started) => `${s.url}/v1/widget/${route}`;
      for (let i = 0; i < PAIRS; i++) {
        for (let attempt = 0; ; attempt++) {
          const waited = await waitForQuiet();
          if (waited > 1000)
            progress(`server: waited ${(waited / 1000).toFixed(1)} s for other processes to quiet down`);
          const results = new Map<Started, WrkResult>();
          for (const side of (round + i) % 2 === 0 ? [a, b] : [b, a]) {
            await wrk(url(side), scripts[route], WARMUP_S);
            results.set(side, await wrk(url(side), scripts[route], DURATION_S, side.proc.pid));
          }
          const pair: Pair = { round, raw: results.get(a)!, product: results.get(b)!, interference: 0 };
          pair.interference = Math.max(pair.raw.interferenceCores ?? 0, pair.product.interferenceCores ?? 0);
          const noisy = pair.interference > MAX_INTERFERENCE;
          progress(
            `server: ${label} ${route} round ${round}.${i + 1}: ${Math.round(pair.raw.requestsPerSec).toLocaleString('en-US').padStart(7)} vs ${Math.round(pair.product.requestsPerSec).toLocaleString('en-US').padStart(7)} req/s (${(pair.product.requestsPerSec / pair.raw.requestsPerSec).toFixed(2)}×), p99 ${pair.raw.p99Ms} vs ${pair.product.p99Ms} ms, server CPU ${pair.raw.serverCpuUsPerRequest} vs ${pair.product.serverCpuUsPerRequest} µs/req, other load ${pair.interference} cores${noisy && attempt === 0 ? ': measuring again' : ''}`,
          );
          // A pair disturbed by other processes is measured again, once.
          if (!noisy || attempt > 0) {
            into.push(pair);
            break;
          }
        }
      }
    };

    /** Both loaded at once on the server core: b's req/s over a's. */
    const measureShared = async (route: Route, a: Started, b: Started, label: string): Promise<number> => {
      await waitForQuiet();
      const [x, y] = await Promise.all(
        [a, b].map((side) => wrk(`${side.url}/v1/widget/${route}`, scripts[route], DURATION_S)),
      );
      const ratio = y!.requestsPerSec / x!.requestsPerSec;
      progress(
        `server: ${label} ${route}, both at once on core ${SERVER_CORE}: ${Math.round(x!.requestsPerSec).toLocaleString('en-US')} vs ${Math.round(y!.requestsPerSec).toLocaleString('en-US')} req/s (${ratio.toFixed(3)}×)`,
      );
      return ratio;
    };

    for (let round = 1; round <= ROUNDS; round++) {
      // Fresh processes every round; which one starts first alternates.
      const order = round % 2 === 1 ? ['raw', 'product'] : ['product', 'raw'];
      const servers: Record<string, Started> = {};
      for (const side of order)
        servers[side] =
          side === 'raw' ? await start(rawCommand('raw-data'), 'raw.log') : await start(productCommand, 'product.log');
      servers.bare = await start(rawCommand('raw-bare-data', '--no-limit'), 'raw-bare.log');
      if (CONTROL) servers.control = await start(rawCommand('raw-control-data'), 'raw-control.log');
      const raw = servers.raw!;
      const product = servers.product!;
      if (round === 1) await checkSameAnswers(raw.url, product.url, apiKey);
      for (const route of ROUTES) {
        for (const server of Object.values(servers))
          await wrk(`${server.url}/v1/widget/${route}`, scripts[route], FIRST_CONTACT_S);
        await measurePairs(round, route, raw, product, pairs[route], 'raw vs product');
        for (let i = 0; i < SHARED_RUNS; i++)
          sharedCore[route].push(await measureShared(route, raw, product, 'raw vs product'));
        for (let i = 0; i < SHARED_RUNS; i++)
          bareShared[route].push(
            await measureShared(route, servers.bare!, product, 'raw without the limit vs product'),
          );
        if (servers.control) {
          await measurePairs(round, route, raw, servers.control, controlPairs[route], 'control raw vs raw');
          for (let i = 0; i < SHARED_RUNS; i++)
            controlShared[route].push(await measureShared(route, raw, servers.control, 'control raw vs raw'));
        }
      }
      for (const server of Object.values(servers)) await stop(server);
    }

    const routes: ServerResults['routes'] = {};
    const control: NonNullable<ServerResults['control']> = {};
    const rows: Row[] = [];
    for (const route of ROUTES) {
      const medians = summarise(pairs[route]);
      routes[route] = { pairs: pairs[route], medians };
      const noisy = pairs[route].filter((p) => p.interference > MAX_INTERFERENCE).length;
      const noise =
        noisy > 0 ? `; ${noisy} pairs had other processes using > ${MAX_INTERFERENCE} cores: treat with care` : '';
      const shared = sharedCore[route];
      const throughputRatio = median(shared);
      const p99Ratio = medians.pairedP99Ratio;
      const controlNote = CONTROL
        ? `; raw against raw the same way: ${median(controlShared[route]).toFixed(3)}× (${range(controlShared[route])})`
        : '';
      rows.push(
        {
          metric: `${route}: product req/s`,
          value: medians.productRps,
          unit: 'req/s',
          target: '',
          pass: null,
          note: 'alone on the core: median of the A/B pairs',
        },
        { metric: `${route}: raw Bun.serve req/s`, value: medians.rawRps, unit: 'req/s', target: '', pass: null },
        {
          metric: `${route}: throughput product/raw`,
          value: throughputRatio,
          unit: '×',
          target: `≥ ${TARGETS.throughputRatio}`,
          pass: throughputRatio >= TARGETS.throughputRatio,
          note: `both loaded at once on core ${SERVER_CORE}: median of ${shared.length} runs from ${ROUNDS} fresh process pairs (middle half ${quantile(shared, 0.25).toFixed(3)}–${quantile(shared, 0.75).toFixed(3)}; ${range(shared)})${controlNote}`,
        },
        {
          metric: `${route}: throughput product/raw without the per-client limit`,
          value: median(bareShared[route]),
          unit: '×',
          target: '',
          pass: null,
          note: `both at once, the baseline without the limit's peer address and counter: median of ${bareShared[route].length} runs (${range(bareShared[route])})`,
        },
        {
          metric: `${route}: throughput product/raw, A/B pairs`,
          value: medians.pairedThroughputRatio,
          unit: '×',
          target: '',
          pass: null,
          note: `each alone, seconds apart: median of ${pairs[route].length} per-pair ratios (middle half ${medians.throughputRatioQ1.toFixed(2)}–${medians.throughputRatioQ3.toFixed(2)}; per process pair ${perRound(pairs[route])}); ratio of medians ${(medians.productRps / medians.rawRps).toFixed(2)}${noise}`,
        },
        {
          metric: `${route}: p99 product / raw`,
          value: p99Ratio,
          unit: '×',
          target: `≤ ${TARGETS.p99Ratio}`,
          pass: p99Ratio <= TARGETS.p99Ratio,
          note: `median of the A/B pairs' ratios; p99 ${ms(medians.productP99Ms)} vs ${ms(medians.rawP99Ms)} (p50 ${ms(medians.productP50Ms)} vs ${ms(medians.rawP50Ms)}), ratio of medians ${(medians.productP99Ms / medians.rawP99Ms).toFixed(2)}`,
        },
        {
          // Less sensitive to other processes than req/s: what one request costs the server.
          metric: `${route}: server CPU per request product/raw`,
          value: medians.productCpuUsPerRequest / medians.rawCpuUsPerRequest,
          unit: '×',
          target: '',
          pass: null,
          note: `${medians.productCpuUsPerRequest.toFixed(1)} µs vs ${medians.rawCpuUsPerRequest.toFixed(1)} µs of server CPU (user + system, all threads) per request`,
        },
      );
      if (CONTROL) {
        const c = summarise(controlPairs[route]);
        control[route] = { pairs: controlPairs[route], medians: c, sharedCore: controlShared[route] };
        rows.push(
          {
            metric: `${route}: control raw/raw throughput`,
            value: median(controlShared[route]),
            unit: '×',
            target: '',
            pass: null,
            note: `two raw processes, both at once (the bench's own noise): ${range(controlShared[route])}`,
          },
          {
            metric: `${route}: control raw/raw throughput, A/B pairs`,
            value: c.pairedThroughputRatio,
            unit: '×',
            target: '',
            pass: null,
            note: `middle half ${c.throughputRatioQ1.toFixed(2)}–${c.throughputRatioQ3.toFixed(2)}; per process pair ${perRound(controlPairs[route])}; p99 ratio ${c.pairedP99Ratio.toFixed(2)}`,
          },
        );
      }
    }

    // RSS of one product process after LOADS_FOR_RSS loads (the account's quota is far off).
    const loadedServer = await start(productCommand, 'product-loaded.log');
    const loadRps = routes.load?.medians.productRps ?? 10_000;
    let loads = 0;
    for (let guard = 0; loads < LOADS_FOR_RSS && guard < 5; guard++) {
      const seconds = Math.max(1, Math.ceil(((LOADS_FOR_RSS - loads) / loadRps) * 1.1));
      progress(`server: ${loads.toLocaleString('en-US')} loads so far; ${seconds} s more of loads`);
      loads += (await wrk(`${loadedServer.url}/v1/widget/load`, scripts.load, seconds)).requests;
    }
    await sleep(1500); // one flush interval, then a quiet moment
    const memory = memoryOf(loadedServer.proc.pid);
    const loaded = { loads, rssMb: memory.rssMb, peakRssMb: memory.peakMb };
    progress(
      `server: after ${loads.toLocaleString('en-US')} loads RSS ${memory.rssMb.toFixed(1)} MB (peak ${memory.peakMb.toFixed(1)} MB)`,
    );
    await stop(loadedServer);

    // Cold start: an existing data dir (a restart), after one discarded run that creates
    // it and brings the executable into the page cache; servers are not pinned here.
    const coldDir = join(work, 'cold-data');
    await coldStart(binary.path, coldDir, 0);
    const runs: { ms: number; idleRssMb: number }[] = [];
    for (let i = 0; i < COLD_RUNS; i++) runs.push(await coldStart(binary.path, coldDir, 500));
    const emptyDir: number[] = [];
    for (let i = 0; i < 3; i++) emptyDir.push((await coldStart(binary.path, join(work, `empty-${i}`), 0)).ms);
    const coldMs = median(runs.map((r) => r.ms));
    const idleRss = median(runs.map((r) => r.idleRssMb));
    progress(
      `server: cold start median ${coldMs.toFixed(1)} ms (runs ${runs.map((r) => r.ms.toFixed(0)).join(', ')}), empty data dir ${emptyDir.map((n) => n.toFixed(0)).join(', ')} ms`,
    );

    rows.push(
      {
        metric: 'cold start to first 200 /healthz',
        value: coldMs,
        unit: 'ms',
        target: `≤ ${TARGETS.coldStartMs} ms`,
        pass: coldMs <= TARGETS.coldStartMs,
        note: `median of ${COLD_RUNS}, existing data dir; on an empty data dir (migrations, secret) ${median(emptyDir).toFixed(0)} ms`,
      },
      {
        metric: 'idle RSS after start',
        value: idleRss,
        unit: 'MB',
        target: `≤ ${TARGETS.idleRssMb} MB`,
        pass: idleRss <= TARGETS.idleRssMb,
      },
      {
        metric: `RSS after ${Math.round(loaded.loads / 1000)}k loads`,
        value: loaded.rssMb,
        unit: 'MB',
        target: `≤ ${TARGETS.loadedRssMb} MB`,
        pass: loaded.rssMb <= TARGETS.loadedRssMb,
        note: `one process; peak (VmHWM) ${loaded.peakRssMb.toFixed(1)} MB`,
      },
    );

    const results: ServerResults = {
      ...resultsHeader('server', { wrk: wrkVersion(), taskset: hasTaskset }),
      rows,
      config: {
        rounds: ROUNDS,
        pairsPerRound: PAIRS,
        sharedRunsPerRound: SHARED_RUNS,
        durationS: DURATION_S,
        warmupS: WARMUP_S,
        firstContactS: FIRST_CONTACT_S,
        control: CONTROL,
        maxInterferenceCores: MAX_INTERFERENCE,
        connections: CONNECTIONS,
        threads: 1,
        coldRuns: COLD_RUNS,
        loadsForRss: LOADS_FOR_RSS,
        serverCore: SERVER_CORE,
        clientCore: CLIENT_CORE,
      },
      binary: binaryRecord(binary),
      routes,
      sharedCore,
      bareSharedCore: bareShared,
      ...(CONTROL ? { control } : {}),
      coldStart: {
        runsMs: runs.map((r) => round2(r.ms)),
        firstStartOnEmptyDirMs: emptyDir.map(round2),
        idleRssMb: runs.map((r) => round2(r.idleRssMb)),
      },
      loaded,
    };
    const file = writeResults(process.env.BENCH_OUT ?? 'server', results);
    progress(`server: wrote ${file}`);
    return results;
  } finally {
    for (const server of running) await server.stop().catch(() => {});
    killAll();
    rmSync(work, { recursive: true, force: true });
  }
}

/** Both servers must give the same answers, or the baseline is not doing the same job. */
async function checkSameAnswers(rawUrl: string, productUrl: string, apiKey: string): Promise<void> {
  for (const route of ROUTES) {
    const [a, b] = await Promise.all([widgetCall(rawUrl, route, apiKey), widgetCall(productUrl, route, apiKey)]);
    if (a.status !== 200 || b.status !== 200)
      throw new Error(`${route}: raw ${a.status}, product ${b.status}: ${JSON.stringify(b.json)}`);
    const isJson = (type: string | null) => type?.split(';')[0]?.trim() === 'application/json';
    if (!Bun.deepEquals(a.json, b.json, true) || a.cors !== b.cors || !isJson(a.type) || !isJson(b.type)) {
      throw new Error(
        `${route}: the raw server answers differently from the product:\nraw ${JSON.stringify(a)}\nproduct ${JSON.stringify(b)}`,
      );
    }
  }
}

/** "0.951–1.043": the smallest and largest of some ratios. */
function range(ratios: number[]): string {
  return `${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}`;
}

function ms(n: number): string {
  return `${round2(n)} ms`;
}

if (import.meta.main) {
  const results = await run();
  printTable(results);
}
