/**
 * The funnel's report route against the load route, on one core.
 *
 * POST /v1/widget/events is called by every page view that shows a calculator, up to
 * twice per element, so it must cost no more than POST /v1/widget/load (the target:
 * events/load throughput ≥ 1). Two processes of the compiled executable, each on a fresh
 * copy of one database (an account with its origin), both pinned to the server core:
 * one is loaded with loads, the other with reports, both at once, so the kernel splits
 * the core between them and the req/s ratio is the ratio of their CPU cost per request
 * under the very same conditions (docs/performance.md). ROUNDS fresh process pairs (which
 * starts first alternates), SHARED_RUNS runs each. Each side is also measured alone
 * (A/B, order alternating), for its own req/s. The bodies are what a browser sends: the
 * load as `text/plain`, the report by `sendBeacon` as `text/plain;charset=UTF-8` with all
 * three steps (the most a report counts); both with the page's Origin.
 *
 * A second figure, steadier on a busy machine: the same two requests through the real
 * app in this process (`handle`, as the listening server's router would, without the
 * network), IN_PROCESS_ROUNDS short rounds alternating the routes; the ratio of each
 * round's times, median of the rounds.
 *
 * Runs on its own (`bun bench/funnel.ts`) or from `bench/run.ts`. Writes
 * bench/results/funnel.json. Tunables (env): BENCH_FUNNEL_ROUNDS (default 3),
 * BENCH_FUNNEL_SHARED_RUNS (default 3), BENCH_DURATION (s, default 3), CALC_BENCH_BIN,
 * BENCH_FUNNEL_IN_PROCESS_ROUNDS (default 30), BENCH_FUNNEL_CALLS (per round, default 5000).
 */
import { join } from 'node:path';
import { createApp } from '../src/app.ts';
import { loadServerConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { silentLogger } from '../src/logger.ts';
import { CALC_ID, ORIGIN, signUpWithDomain } from './lib/api.ts';
import { copyDataDir } from './lib/data-dir.ts';
import {
  binaryRecord,
  inWorkDir,
  pinned,
  prepareBinary,
  SERVER_CORE,
  serveCommand,
  startListening,
  unreachedLimits,
  type BinaryRecord,
  type Started,
} from './lib/processes.ts';
import { waitForQuiet } from './lib/proc-stats.ts';
import { printTable, progress, resultsHeader, writeResults, type BenchResults, type Row } from './lib/report.ts';
import { median, quantile, round3 } from './lib/sampling.ts';
import { wrk, wrkScript, wrkVersion } from './lib/wrk.ts';

const ROUNDS = Number(process.env.BENCH_FUNNEL_ROUNDS ?? 3);
const SHARED_RUNS = Number(process.env.BENCH_FUNNEL_SHARED_RUNS ?? 3);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 3);
/** A fresh process's first seconds under load (JIT tiers): never measured. */
const FIRST_CONTACT_S = 2;
const QUOTA = 100_000_000;
const IN_PROCESS_ROUNDS = Number(process.env.BENCH_FUNNEL_IN_PROCESS_ROUNDS ?? 30);
const CALLS = Number(process.env.BENCH_FUNNEL_CALLS ?? 5_000);

export const TARGETS = { eventsOverLoad: 1 };

const SIDES = ['load', 'events'] as const;
type Side = (typeof SIDES)[number];

export interface FunnelResults extends BenchResults {
  binary: BinaryRecord;
  /** events / load req/s, both at once on the server core, one per run. */
  sharedCore: number[];
  /** Each side's req/s while sharing the core, and alone. */
  rps: Record<Side, { shared: number[]; alone: number[] }>;
  /** In process: µs per request of each side, one per round. */
  inProcessUs: Record<Side, number[]>;
}

/** The two requests a browser makes, as `Request`s of the given account. */
function requestsOf(apiKey: string): Record<Side, () => Request> {
  const call = { apiKey, domain: ORIGIN, calcId: CALC_ID };
  const make = (side: Side, body: string, type: string) => () =>
    new Request(`http://calc.bench/v1/widget/${side}`, {
      method: 'POST',
      headers: { 'content-type': type, origin: ORIGIN },
      body,
    });
  return {
    load: make('load', JSON.stringify(call), 'text/plain'),
    events: make(
      'events',
      JSON.stringify({ ...call, events: ['view', 'start', 'complete'] }),
      'text/plain;charset=UTF-8',
    ),
  };
}

/** µs per request of each route through the app in this process, IN_PROCESS_ROUNDS rounds alternating. */
async function inProcess(work: string): Promise<Record<Side, number[]>> {
  const config = loadServerConfig(
    { data: join(work, 'in-process'), 'quota-free': QUOTA, 'rate-widget-per-minute': 0, 'rate-widget-per-day': 0 },
    {},
  );
  const database = openDatabase(config.dataDir);
  const built = createApp({
    config,
    database,
    jwtSecret: crypto.getRandomValues(new Uint8Array(32)),
    headerKey: crypto.getRandomValues(new Uint8Array(32)),
    logger: silentLogger,
  });
  built.app.listen({ hostname: '127.0.0.1', port: 0 });
  try {
    const { apiKey } = await signUpWithDomain(`http://127.0.0.1:${built.app.server?.port}`);
    const requests = requestsOf(apiKey);
    const time = async (side: Side): Promise<number> => {
      const started = Bun.nanoseconds();
      for (let i = 0; i < CALLS; i++) {
        const response = await built.handle(requests[side]());
        if (response.status > 299) throw new Error(`${side} answered ${response.status}: ${await response.text()}`);
        await response.arrayBuffer();
      }
      return (Bun.nanoseconds() - started) / CALLS / 1000;
    };
    for (const side of SIDES) await time(side);
    const us: Record<Side, number[]> = { load: [], events: [] };
    for (let round = 0; round < IN_PROCESS_ROUNDS; round++)
      for (const side of round % 2 === 0 ? SIDES : [...SIDES].reverse()) us[side].push(await time(side));
    await built.flush();
    return us;
  } finally {
    await built.app.stop(true);
    database.close();
  }
}

export function run(): Promise<FunnelResults> {
  return inWorkDir('calc-bench-funnel-', async (work) => {
    const binary = prepareBinary(work);
    progress(`funnel: executable ${binary.path} (${binary.note})`);
    const baseDir = join(work, 'base-data');
    const limits = unreachedLimits('free', QUOTA);
    const setup = await startListening(serveCommand(binary.path, baseDir, limits));
    let apiKey = '';
    try {
      ({ apiKey } = await signUpWithDomain(setup.url));
    } finally {
      await setup.stop();
    }
    progress(`funnel: in process, ${IN_PROCESS_ROUNDS} rounds of ${CALLS} calls per route`);
    const inProcessUs = await inProcess(work);
    const call = { apiKey, domain: ORIGIN, calcId: CALC_ID };
    const scripts: Record<Side, string> = {
      load: wrkScript(work, 'load', JSON.stringify(call), 'text/plain'),
      events: wrkScript(
        work,
        'events',
        JSON.stringify({ ...call, events: ['view', 'start', 'complete'] }),
        'text/plain;charset=UTF-8',
      ),
    };
    const sharedCore: number[] = [];
    const rps: FunnelResults['rps'] = { load: { shared: [], alone: [] }, events: { shared: [], alone: [] } };
    for (let round = 1; round <= ROUNDS; round++) {
      const order: readonly Side[] = round % 2 === 1 ? SIDES : [...SIDES].reverse();
      const servers: Partial<Record<Side, Started>> = {};
      try {
        for (const side of order) {
          const dir = join(work, `${side}-${round}`);
          copyDataDir(baseDir, dir);
          servers[side] = await startListening(pinned(SERVER_CORE, serveCommand(binary.path, dir, limits)));
        }
        const url = (side: Side) => `${servers[side]?.url}/v1/widget/${side}`;
        for (const side of order) await wrk(url(side), scripts[side], FIRST_CONTACT_S);
        for (let i = 0; i < SHARED_RUNS; i++) {
          await waitForQuiet();
          const [load, events] = await Promise.all(SIDES.map((side) => wrk(url(side), scripts[side], DURATION_S)));
          if (!load || !events || load.non2xx > 0 || events.non2xx > 0)
            throw new Error(`non-2xx answers: load ${load?.non2xx}, events ${events?.non2xx}`);
          const ratio = events.requestsPerSec / load.requestsPerSec;
          sharedCore.push(ratio);
          rps.load.shared.push(load.requestsPerSec);
          rps.events.shared.push(events.requestsPerSec);
          progress(
            `funnel: round ${round}.${i + 1}, both at once: load ${Math.round(load.requestsPerSec)} vs events ${Math.round(events.requestsPerSec)} req/s (${ratio.toFixed(3)}×)`,
          );
        }
        for (const side of order) {
          await waitForQuiet();
          const alone = await wrk(url(side), scripts[side], DURATION_S);
          rps[side].alone.push(alone.requestsPerSec);
          progress(`funnel: round ${round}, ${side} alone: ${Math.round(alone.requestsPerSec)} req/s`);
        }
      } finally {
        for (const server of Object.values(servers)) await server.stop();
      }
    }
    const ratio = median(sharedCore);
    const aloneLoad = median(rps.load.alone);
    const aloneEvents = median(rps.events.alone);
    const perRound = inProcessUs.load.map((load, i) => load / (inProcessUs.events[i] ?? Number.NaN));
    const rows: Row[] = [
      {
        metric: 'events / load throughput, one core',
        value: round3(ratio),
        unit: '×',
        target: `≥ ${TARGETS.eventsOverLoad}`,
        pass: ratio >= TARGETS.eventsOverLoad,
        note: `both at once on core ${SERVER_CORE}: median of ${sharedCore.length} runs from ${ROUNDS} fresh process pairs (middle half ${quantile(sharedCore, 0.25).toFixed(3)}–${quantile(sharedCore, 0.75).toFixed(3)}; range ${Math.min(...sharedCore).toFixed(3)}–${Math.max(...sharedCore).toFixed(3)}); while sharing ${Math.round(median(rps.events.shared))} vs ${Math.round(median(rps.load.shared))} req/s`,
      },
      {
        metric: 'events / load throughput, in process',
        value: round3(median(perRound)),
        unit: '×',
        target: '',
        pass: null,
        note: `load µs ÷ events µs per round, median of ${perRound.length} rounds (middle half ${quantile(perRound, 0.25).toFixed(3)}–${quantile(perRound, 0.75).toFixed(3)}); ${median(inProcessUs.events).toFixed(1)} vs ${median(inProcessUs.load).toFixed(1)} µs per request through handle()`,
      },
      {
        metric: 'POST /v1/widget/events req/s, alone',
        value: Math.round(aloneEvents),
        unit: 'req/s',
        target: '',
        pass: null,
        note: `median of ${rps.events.alone.length} (range ${Math.round(Math.min(...rps.events.alone))}–${Math.round(Math.max(...rps.events.alone))}); three steps counted per report`,
      },
      {
        metric: 'POST /v1/widget/load req/s, alone',
        value: Math.round(aloneLoad),
        unit: 'req/s',
        target: '',
        pass: null,
        note: `median of ${rps.load.alone.length} (range ${Math.round(Math.min(...rps.load.alone))}–${Math.round(Math.max(...rps.load.alone))}); alone-run ratio ${(aloneEvents / aloneLoad).toFixed(2)}`,
      },
    ];
    const results: FunnelResults = {
      ...resultsHeader('funnel', { wrk: wrkVersion() }),
      rows,
      binary: binaryRecord(binary),
      sharedCore,
      rps,
      inProcessUs,
    };
    writeResults('funnel', results);
    return results;
  });
}

if (import.meta.main) {
  printTable(await run());
}
