/**
 * Results (docs/results.md), three measurements:
 *
 * 1. **Submissions per second on one core, delivery on.** The executable built from this
 *    tree (`calc serve`, SQLite) pinned to core 1; wrk on core 0 POSTs /v1/widget/submit
 *    (32 connections) for a Base account whose results endpoint, a separate process on core
 *    0 (bench/results-target.ts), receives every `result.submitted` event. Each submission
 *    is checked, evaluated and committed with its event before its 202; the server's
 *    delivery loop POSTs the events meanwhile, on the same core. RUNS runs of SECONDS.
 * 2. **From a 202 to the endpoint.** The real app in process (SQLite in a temp dir, its
 *    delivery loop running), an endpoint on 127.0.0.2; one submission at a time, timed from
 *    its 202 until the endpoint's handler sees its event.
 * 3. **The widget's load with results on, against off**, in process (as bench/caps.ts): a
 *    Base account without a results config and one with results on for bmi, their loads
 *    through `handle()` in alternating rounds, timed in CPU time; the throughput ratio is
 *    the median of each round's (off time ÷ on time).
 *
 * Writes bench/results/results.json. Env: BENCH_RESULTS_SECONDS (10), BENCH_RESULTS_RUNS (3),
 * BENCH_RESULTS_EVENTS (300), BENCH_RESULTS_ROUNDS (40), BENCH_RESULTS_LOADS (5000),
 * BENCH_RESULTS_PARTS (submit,latency,loads: the measurements to make).
 */
import { join } from 'node:path';
import { createApp } from '../src/app.ts';
import { loadServerConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { silentLogger } from '../src/logger.ts';
import { startReceiver } from '../test/helpers/receiver.ts';
import { LEAD_CONFIG, submission } from '../test/helpers/results.ts';
import { testApp } from '../test/helpers/test-app.ts';
import { api, ORIGIN, signUpWithDomain } from './lib/api.ts';
import {
  CLIENT_CORE,
  inWorkDir,
  pinned,
  prepareBinary,
  runToEnd,
  SERVER_CORE,
  serveCommand,
  startListening,
} from './lib/processes.ts';
import { type BenchResults, printTable, progress, ROOT, resultsHeader, type Row, writeResults } from './lib/report.ts';
import { cpuSecondsOf } from './lib/proc-stats.ts';
import { median, quantile, round1, round2, round3 } from './lib/sampling.ts';
import { wrk, wrkScript } from './lib/wrk.ts';

const SECONDS = Number(process.env.BENCH_RESULTS_SECONDS ?? 10);
const RUNS = Number(process.env.BENCH_RESULTS_RUNS ?? 3);
const EVENTS = Number(process.env.BENCH_RESULTS_EVENTS ?? 300);
const ROUNDS = Number(process.env.BENCH_RESULTS_ROUNDS ?? 40);
const LOADS = Number(process.env.BENCH_RESULTS_LOADS ?? 5_000);
const HUGE = 1_000_000_000;
const TARGET_HOST = '127.0.0.2';

export const TARGETS = { submissionsPerSecond: 2_000, medianDeliveryMs: 100, loadRatio: 0.97 };

interface Stats {
  deliveries: number;
  distinct: number;
}

/** Waits until the endpoint has seen no delivery for two seconds (the queue is empty); its last stats. */
async function drained(stats: () => Promise<Stats>): Promise<Stats> {
  const started = performance.now();
  let last = await stats();
  for (let quiet = 0; quiet < 8 && performance.now() - started < 300_000; ) {
    await Bun.sleep(250);
    const now = await stats();
    quiet = now.deliveries === last.deliveries ? quiet + 1 : 0;
    last = now;
  }
  return last;
}

/** 1: submissions a second from wrk, the server on one core delivering every event. */
async function submissionsPerSecond(work: string) {
  const binary = prepareBinary(work);
  const data = join(work, 'data');
  const target = await startListening(
    pinned(CLIENT_CORE, [process.execPath, join(ROOT, 'bench', 'results-target.ts'), TARGET_HOST]),
  );
  const server = await startListening(
    pinned(
      SERVER_CORE,
      serveCommand(binary.path, data, [
        '--rate-widget-per-minute',
        '0',
        '--rate-widget-per-day',
        '0',
        '--submissions-base',
        String(HUGE),
      ]),
    ),
    { env: { CALC_WEBHOOK_ALLOW_CIDRS: `${TARGET_HOST}/32` } },
  );
  const stats = async (): Promise<Stats> => (await fetch(`${target.url}/stats`)).json() as Promise<Stats>;
  try {
    const owner = await signUpWithDomain(server.url);
    const plan = await runToEnd([
      binary.path,
      'admin',
      'accounts',
      'set-plan',
      '--email',
      owner.email,
      '--plan',
      'base',
      '--data',
      data,
    ]);
    if (plan.code !== 0) throw new Error(`set-plan failed: ${plan.stderr}`);
    await api(server.url, 'PUT', '/v1/widget-config/bmi', { config: { results: LEAD_CONFIG } }, owner.token);
    await api(server.url, 'PUT', '/v1/account/results-endpoint', { url: `${target.url}/events` }, owner.token);
    const script = wrkScript(work, 'submit', JSON.stringify(submission({ apiKey: owner.apiKey })));
    const url = `${server.url}/v1/widget/submit`;
    progress(`results: warming up, then ${RUNS} × ${SECONDS} s of submissions`);
    await wrk(url, script, 2);
    // Drained before the measured runs: what is delivered from here on is theirs.
    await drained(stats);
    const cpuBefore = cpuSecondsOf(server.proc.pid);
    const deliveredBefore = (await stats()).deliveries;
    let requests = 0;
    const runs: { rps: number; cpuUs: number; deliveredPerSecond: number; interference: number }[] = [];
    for (let i = 0; i < RUNS; i++) {
      const before = await stats();
      const started = performance.now();
      const result = await wrk(url, script, SECONDS, { serverPid: server.proc.pid, helperPids: [target.proc.pid] });
      requests += result.requests;
      const seconds = (performance.now() - started) / 1000;
      const after = await stats();
      runs.push({
        rps: result.requestsPerSec,
        cpuUs: result.serverCpuUsPerRequest ?? Number.NaN,
        deliveredPerSecond: (after.deliveries - before.deliveries) / seconds,
        interference: result.interferenceCores ?? Number.NaN,
      });
      progress(
        `results: ${Math.round(result.requestsPerSec)} submissions/s, ${Math.round(runs.at(-1)?.deliveredPerSecond ?? 0)} deliveries/s`,
      );
    }
    // Every accepted submission's event arrives: the server's CPU until then is their whole cost.
    const drainStarted = performance.now();
    const last = await drained(stats);
    const drainSeconds = (performance.now() - drainStarted) / 1000;
    const cpuUsWithDelivery = ((cpuSecondsOf(server.proc.pid) - cpuBefore) * 1e6) / requests;
    return {
      runs,
      binary: binary.note,
      delivered: last.deliveries - deliveredBefore,
      requests,
      drainSeconds,
      cpuUsWithDelivery,
    };
  } finally {
    await server.stop();
    await target.stop();
  }
}

/** 2: from a submission's 202 to its event at the endpoint, one at a time. */
async function deliveryLatency() {
  const receiver = startReceiver(() => new Response(null, { status: 204 }));
  using app = testApp({
    env: { CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.2/32' },
    flags: { 'rate-widget-per-minute': 0, 'rate-widget-per-day': 0, 'submissions-base': HUGE },
  });
  try {
    const owner = await app.signup();
    await app.accounts.setPlan(owner.id, 'base');
    await app.request('POST', '/v1/domains', { token: owner.token, body: { domain: ORIGIN } });
    await app.request('PUT', '/v1/widget-config/bmi', {
      token: owner.token,
      body: { config: { results: LEAD_CONFIG } },
    });
    const saved = await app.request('PUT', '/v1/account/results-endpoint', {
      token: owner.token,
      body: { url: receiver.url() },
    });
    if (saved.status !== 201) throw new Error(`the endpoint was not saved: ${saved.text}`);
    await app.delivery.start();
    const body = JSON.stringify(submission(owner));
    const latencies: number[] = [];
    progress(`results: ${EVENTS} submissions one at a time, each until its event arrives`);
    for (let i = 0; i < EVENTS + 20; i++) {
      const answer = await app.handle(
        new Request('http://calc.bench/v1/widget/submit', {
          method: 'POST',
          headers: { 'content-type': 'text/plain', origin: ORIGIN },
          body,
        }),
      );
      if (answer.status !== 202) throw new Error(`submit answered ${answer.status}: ${await answer.text()}`);
      await answer.arrayBuffer();
      const accepted = performance.now();
      await receiver.waitFor(i + 1);
      // The first 20 warm the paths up.
      if (i >= 20) latencies.push(performance.now() - accepted);
      await app.delivery.idle();
    }
    return latencies;
  } finally {
    await app.delivery.stop(performance.now() + 5000);
    await receiver.stop();
  }
}

/** 3: a widget load's time with results on and off, alternating rounds. */
async function loadWithResults(work: string) {
  const config = loadServerConfig(
    { data: join(work, 'loads'), 'quota-base': HUGE, 'rate-widget-per-minute': 0, 'rate-widget-per-day': 0 },
    {},
  );
  const database = openDatabase(config.dataDir);
  const app = createApp({
    config,
    database,
    jwtSecret: crypto.getRandomValues(new Uint8Array(32)),
    headerKey: crypto.getRandomValues(new Uint8Array(32)),
    logger: silentLogger,
  });
  try {
    await app.ready;
    const call = async (method: string, path: string, token: string, body: unknown) =>
      app.handle(
        new Request(`http://calc.bench${path}`, {
          method,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify(body),
        }),
      );
    const owner = async (name: string, results: boolean) => {
      const signup = await app.handle(
        new Request('http://calc.bench/v1/auth/signup', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: `${name}@bench.example`, password: 'bench password 123' }),
        }),
      );
      const json = (await signup.json()) as { token: string; account: { id: string; apiKey: string } };
      await app.accounts.setPlan(json.account.id, 'base');
      await call('POST', '/v1/domains', json.token, { domain: ORIGIN });
      if (results) {
        const saved = await call('PUT', '/v1/widget-config/bmi', json.token, { config: { results: LEAD_CONFIG } });
        if (saved.status !== 200) throw new Error(`results config: ${await saved.text()}`);
      }
      return json.account.apiKey;
    };
    const off = await owner('off', false);
    const on = await owner('on', true);
    const time = async (apiKey: string, expectResults: boolean) => {
      const body = JSON.stringify({ apiKey, domain: ORIGIN, calcId: 'bmi' });
      const headers = { 'content-type': 'application/json', origin: ORIGIN };
      // CPU time, not wall time: on a machine shared with other work it is the load's own.
      const started = process.cpuUsage();
      for (let i = 0; i < LOADS; i++) {
        const response = await app.handle(
          new Request('http://calc.bench/v1/widget/load', { method: 'POST', headers, body }),
        );
        const text = await response.text();
        if (response.status !== 200 || text.includes(',"results":{') !== expectResults)
          throw new Error(`load answered ${response.status}: ${text.slice(0, 200)}`);
      }
      const used = process.cpuUsage(started);
      return ((used.user + used.system) * 1000) / LOADS;
    };
    await time(off, false);
    await time(on, true);
    const times = { off: [] as number[], on: [] as number[] };
    progress(`results: ${ROUNDS} rounds of ${LOADS} loads with results off and on`);
    for (let round = 0; round < ROUNDS; round++) {
      // Alternating (and which goes first too), so a busy moment touches both sides alike.
      if (round % 2 === 0) {
        times.off.push(await time(off, false));
        times.on.push(await time(on, true));
      } else {
        times.on.push(await time(on, true));
        times.off.push(await time(off, false));
      }
      await app.flush();
    }
    return times;
  } finally {
    await app.delivery.stop(0);
    database.close();
  }
}

/** Which measurements to make (all by default): `BENCH_RESULTS_PARTS=loads` runs the third alone. */
const PARTS = new Set((process.env.BENCH_RESULTS_PARTS ?? 'submit,latency,loads').split(','));

async function submitRows(work: string): Promise<{ rows: Row[]; extra: Record<string, unknown> }> {
  const submitted = await submissionsPerSecond(work);
  const rps = submitted.runs.map((r) => r.rps);
  const rows: Row[] = [
    {
      metric: 'submissions per second, one core, delivery on (SQLite): median',
      value: Math.round(median(rps)),
      unit: 'req/s',
      target: `≥ ${TARGETS.submissionsPerSecond}`,
      pass: median(rps) >= TARGETS.submissionsPerSecond,
      note: `${RUNS} runs of ${SECONDS} s, wrk 32 connections; runs ${rps.map(Math.round).join(', ')}`,
    },
    {
      metric: 'server CPU per submission and its delivery',
      value: round1(submitted.cpuUsWithDelivery),
      unit: 'µs',
      target: '',
      pass: null,
      note: `user + system of the server from the first measured run until the queue drained (${submitted.delivered} events delivered for the ${submitted.requests} submissions wrk counted; drained ${round1(submitted.drainSeconds)} s after the last run)`,
    },
    {
      metric: 'submissions a core can take, each delivered (1 s ÷ that CPU)',
      value: Math.round(1e6 / submitted.cpuUsWithDelivery),
      unit: '/s',
      target: `≥ ${TARGETS.submissionsPerSecond}`,
      pass: 1e6 / submitted.cpuUsWithDelivery >= TARGETS.submissionsPerSecond,
      note: 'what a dedicated core sustains; unlike req/s, it holds on a machine shared with other work',
    },
    {
      metric: 'deliveries per second during the runs (same core)',
      value: Math.round(median(submitted.runs.map((r) => r.deliveredPerSecond))),
      unit: '/s',
      target: '',
      pass: null,
      note: 'the rest waits in the queue and goes out after the runs',
    },
    {
      metric: 'other processes meanwhile',
      value: round2(median(submitted.runs.map((r) => r.interference))),
      unit: 'cores',
      target: '',
      pass: null,
    },
  ];
  return { rows, extra: { binary: submitted.binary, submissionsPerSecond: rps } };
}

async function latencyRows(): Promise<{ rows: Row[]; extra: Record<string, unknown> }> {
  const latencies = await deliveryLatency();
  const rows: Row[] = [
    {
      metric: '202 → the endpoint receives the event (loopback): median',
      value: round2(median(latencies)),
      unit: 'ms',
      target: `≤ ${TARGETS.medianDeliveryMs}`,
      pass: median(latencies) <= TARGETS.medianDeliveryMs,
      note: `${EVENTS} submissions one at a time; p95 ${round2(quantile(latencies, 0.95))} ms`,
    },
  ];
  return { rows, extra: { latenciesMs: latencies.map(round2) } };
}

async function loadRows(work: string): Promise<{ rows: Row[]; extra: Record<string, unknown> }> {
  const times = await loadWithResults(work);
  const ratios = times.off.map((off, i) => off / (times.on[i] ?? Number.NaN));
  const ratio = median(ratios);
  const rows: Row[] = [
    {
      metric: 'load, results off',
      value: round2(median(times.off) / 1000),
      unit: 'µs',
      target: '',
      pass: null,
      note: `CPU time; median of ${ROUNDS} rounds of ${LOADS} loads through handle()`,
    },
    {
      metric: 'load, results on',
      value: round2(median(times.on) / 1000),
      unit: 'µs',
      target: '',
      pass: null,
    },
    {
      metric: "load throughput, results on ÷ off (each round's ratio): median",
      value: round3(ratio),
      unit: '×',
      target: `≥ ${TARGETS.loadRatio}`,
      pass: ratio >= TARGETS.loadRatio,
      note: `rounds' ratios: 10th percentile ${round3(quantile(ratios, 0.1))}, 90th ${round3(quantile(ratios, 0.9))}`,
    },
  ];
  return { rows, extra: { loadNs: times } };
}

export async function run(): Promise<BenchResults> {
  return inWorkDir('calc-bench-results-', async (work) => {
    const parts = [
      PARTS.has('submit') ? await submitRows(work) : null,
      PARTS.has('latency') ? await latencyRows() : null,
      PARTS.has('loads') ? await loadRows(work) : null,
    ].flatMap((part) => (part ? [part] : []));
    const results: BenchResults = {
      ...resultsHeader('results'),
      rows: parts.flatMap((part) => part.rows),
      ...Object.assign({}, ...parts.map((part) => part.extra)),
    };
    writeResults('results', results);
    return results;
  });
}

if (import.meta.main) printTable(await run());
