/**
 * Visitor context benchmark. Widget loads with a valid visitor context and a
 * webhook, against the same loads without a context, both loaded at once: two fresh
 * server processes of the compiled executable share the server core, wrk drives both at
 * the same time, and the figure is the ratio of their req/s (median over runs and fresh
 * process pairs). An A/A control (both servers without a context) gives the bench's own
 * noise. Target: ≥ 0.95×.
 *
 * Also: the cost of one context check in-process, the hand-written verifier
 * (src/security/visitor-context.ts) against `jose`'s jwtVerify (HS256 only), blocks
 * alternated; the reason for the choice is in docs/decisions.md.
 *
 * Each side has 8 Extra accounts with a webhook on bmi to bench/webhook-target.ts (32 wrk
 * connections: ~4 pulls in flight per account, under the cap of 8) and the context side
 * sends tokens of each account's own, 32 distinct ones per account in turn (each page
 * view mints its own). Processes: servers on core 1; wrk and the target on
 * core 0. Writes bench/results/visitor.json.
 *
 * Env: CALC_BENCH_BIN, BENCH_VISITOR_ROUNDS (3), BENCH_VISITOR_RUNS (3 per round),
 * BENCH_VISITOR_DURATION (3 s), BENCH_VISITOR_VERIFY_CALLS (20000 per block).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jwtVerify } from 'jose';
import { mintContext, verifyContext } from '../src/security/visitor-context.ts';
import { api, CALC_ID, ORIGIN } from './lib/api.ts';
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
  type Started,
} from './lib/processes.ts';
import { printTable, progress, resultsHeader, ROOT, writeResults, type Row } from './lib/report.ts';
import { median, quantile, round2, round3 } from './lib/sampling.ts';
import { wrk, wrkScript, wrkVersion } from './lib/wrk.ts';
import { createAccounts, PREFILL_VALUES, widgetLoad } from './webhook-setup.ts';

const ROUNDS = Number(process.env.BENCH_VISITOR_ROUNDS ?? 3);
const RUNS = Number(process.env.BENCH_VISITOR_RUNS ?? 3);
const DURATION_S = Number(process.env.BENCH_VISITOR_DURATION ?? 3);
const VERIFY_CALLS = Number(process.env.BENCH_VISITOR_VERIFY_CALLS ?? 20_000);
const VERIFY_BLOCKS = 10;
const WARMUP_S = 1;
const ACCOUNTS = 8;
// Distinct tokens, as each page view mints its own: no repeat can be served from a cache.
const TOKENS_PER_ACCOUNT = 32;
const QUOTA = 100_000_000;
const TARGET_HOST = '127.0.0.2';
const TARGET_RATIO = 0.95;

interface Side {
  dataDir: string;
  /** One body per account, sent in turn. */
  plain: string[];
  withContext: string[];
}

/** The in-process cost of one context check: µs per call, hand-written vs jose. */
async function verifierCost(): Promise<{ ownUs: number; joseUs: number }> {
  const secret = 'whsec_bench0000000000000000000000000000';
  const nowSeconds = Math.floor(Date.now() / 1000);
  const token = mintContext(secret, { sub: 'cust_42', exp: nowSeconds + 600, calc: CALC_ID, origin: ORIGIN });
  const expected = { calcId: CALC_ID, origin: ORIGIN, nowSeconds };
  const key = new TextEncoder().encode(secret);
  if (verifyContext(token, [secret], expected) !== 'cust_42') throw new Error('the bench token does not verify');
  const own: number[] = [];
  const viaJose: number[] = [];
  for (let block = 0; block < VERIFY_BLOCKS; block++) {
    for (const which of block % 2 === 0 ? ['own', 'jose'] : ['jose', 'own']) {
      const t0 = performance.now();
      if (which === 'own') {
        for (let i = 0; i < VERIFY_CALLS; i++) verifyContext(token, [secret], expected);
        own.push(((performance.now() - t0) * 1000) / VERIFY_CALLS);
      } else {
        // What a jose-based check would do per load; claims beyond exp are checked after.
        for (let i = 0; i < VERIFY_CALLS; i++) await jwtVerify(token, key, { algorithms: ['HS256'] });
        viaJose.push(((performance.now() - t0) * 1000) / VERIFY_CALLS);
      }
    }
  }
  return { ownUs: round3(median(own)), joseUs: round3(median(viaJose)) };
}

export async function run() {
  if (Bun.which('wrk') === null) throw new Error('wrk is not installed: apt-get install -y wrk');
  const work = mkdtempSync(join(tmpdir(), 'calc-bench-visitor-'));
  const running = new Set<Started>();
  const start = async (command: string[], log: string): Promise<Started> => {
    const started = await startListening(pinned(SERVER_CORE, command), {
      env: { CALC_WEBHOOK_ALLOW_CIDRS: `${TARGET_HOST}/32`, BUN_CONFIG_MAX_HTTP_REQUESTS: '1024' },
      stderrFile: join(work, log),
    });
    running.add(started);
    return started;
  };
  const stop = async (started: Started) => {
    running.delete(started);
    await started.stop();
  };
  try {
    progress(`visitor: context check in-process, hand-written vs jose (${VERIFY_BLOCKS} blocks of ${VERIFY_CALLS})`);
    const cost = await verifierCost();
    progress(`visitor: ${cost.ownUs} µs (hand-written) vs ${cost.joseUs} µs (jose) per check`);

    const binary = prepareBinary(work);
    progress(
      `visitor: executable ${binary.path} (${binary.note}); taskset ${hasTaskset ? `servers on core ${SERVER_CORE}, wrk and target on core ${CLIENT_CORE}` : 'absent: unpinned'}`,
    );
    const target = await startListening(
      pinned(CLIENT_CORE, [process.execPath, join(ROOT, 'bench', 'webhook-target.ts'), TARGET_HOST]),
    );
    const serve = (dataDir: string) => serveCommand(binary.path, dataDir, unreachedLimits('extra', QUOTA));

    // Each side: its own data directory, Extra accounts with the webhook, a token per account.
    const sides: Side[] = [];
    for (const name of ['a', 'b']) {
      const dataDir = join(work, `data-${name}`);
      const setup = await start(serve(dataDir), `setup-${name}.log`);
      const accounts = await createAccounts(setup.url, binary.path, dataDir, name, ACCOUNTS, `${target.url}/prefill`);
      const side: Side = { dataDir, plain: [], withContext: [] };
      const secrets = [];
      for (const account of accounts)
        secrets.push(
          (await api(setup.url, 'GET', '/v1/account/signing-secret', undefined, account.token)).signingSecret,
        );
      // Accounts interleaved, so consecutive loads go to different accounts (as without).
      for (let t = 0; t < TOKENS_PER_ACCOUNT; t++) {
        for (const [i, account] of accounts.entries()) {
          // Valid for the whole run (at most 24 hours ahead), bound to the calculator and origin.
          const context = mintContext(secrets[i], {
            sub: `bench-visitor-${i}-${t}`,
            exp: Math.floor(Date.now() / 1000) + 3 * 3600,
            calc: CALC_ID,
            origin: ORIGIN,
          });
          side.withContext.push(JSON.stringify({ apiKey: account.apiKey, domain: ORIGIN, calcId: CALC_ID, context }));
        }
      }
      for (const account of accounts)
        side.plain.push(JSON.stringify({ apiKey: account.apiKey, domain: ORIGIN, calcId: CALC_ID }));
      const loaded = await widgetLoad(setup.url, accounts[0]!.apiKey);
      if (JSON.stringify(loaded.values) !== JSON.stringify(PREFILL_VALUES))
        throw new Error(`the webhook does not pre-fill: ${JSON.stringify(loaded)}`);
      await stop(setup);
      sides.push(side);
    }
    const [a, b] = sides as [Side, Side];
    const scripts = {
      plain: wrkScript(work, 'visitor-plain', a.plain),
      context: wrkScript(work, 'visitor-context', b.withContext),
      control: wrkScript(work, 'visitor-control', b.plain),
    };

    const ratios: number[] = [];
    const control: number[] = [];
    const cpu = { plain: [] as number[], context: [] as number[] };
    for (let round = 1; round <= ROUNDS; round++) {
      // Fresh processes every round; which starts first alternates.
      const order = round % 2 === 1 ? [a, b] : [b, a];
      const started = new Map<Side, Started>();
      for (const side of order) started.set(side, await start(serve(side.dataDir), `serve-${round}.log`));
      const urlA = `${started.get(a)!.url}/v1/widget/load`;
      const urlB = `${started.get(b)!.url}/v1/widget/load`;
      const pidA = started.get(a)!.proc.pid;
      const pidB = started.get(b)!.proc.pid;
      await Promise.all([wrk(urlA, scripts.plain, WARMUP_S), wrk(urlB, scripts.context, WARMUP_S)]);
      const atOnce = async (scriptB: string) => {
        const [x, y] = await Promise.all([
          wrk(urlA, scripts.plain, DURATION_S, { serverPid: pidA, helperPids: [pidB, target.proc.pid] }),
          wrk(urlB, scriptB, DURATION_S, { serverPid: pidB, helperPids: [pidA, target.proc.pid] }),
        ]);
        return { x, y, ratio: y.requestsPerSec / x.requestsPerSec };
      };
      for (let i = 0; i < RUNS; i++) {
        const { x, y, ratio } = await atOnce(scripts.context);
        ratios.push(ratio);
        cpu.plain.push(x.serverCpuUsPerRequest ?? Number.NaN);
        cpu.context.push(y.serverCpuUsPerRequest ?? Number.NaN);
        progress(
          `visitor: round ${round}.${i + 1}, both at once: ${Math.round(x.requestsPerSec)} without vs ${Math.round(y.requestsPerSec)} with a context req/s (${ratio.toFixed(3)}×), server CPU ${x.serverCpuUsPerRequest} vs ${y.serverCpuUsPerRequest} µs/load`,
        );
        const c = await atOnce(scripts.control);
        control.push(c.ratio);
        progress(`visitor: round ${round}.${i + 1}, control (no context on either): ${c.ratio.toFixed(3)}×`);
      }
      for (const s of started.values()) await stop(s);
    }
    await target.stop();

    const ratio = round3(median(ratios));
    const band = (values: number[]) =>
      `middle half ${quantile(values, 0.25).toFixed(3)}–${quantile(values, 0.75).toFixed(3)}, range ${Math.min(...values).toFixed(3)}–${Math.max(...values).toFixed(3)}`;
    const rows: Row[] = [
      {
        metric: 'load with a valid context and a webhook / the same load without a context (req/s, both at once)',
        value: ratio,
        unit: '×',
        target: `≥ ${TARGET_RATIO}`,
        pass: ratio >= TARGET_RATIO,
        note: `median of ${ratios.length} runs from ${ROUNDS} fresh process pairs (${band(ratios)})`,
      },
      {
        metric: 'A/A control: both servers without a context (the bench noise)',
        value: round3(median(control)),
        unit: '×',
        target: '',
        pass: null,
        note: band(control),
      },
      {
        metric: 'server CPU per load: with a context minus without',
        value: round2(median(cpu.context) - median(cpu.plain)),
        unit: 'µs',
        target: '',
        pass: null,
        note: `medians ${round2(median(cpu.context))} vs ${round2(median(cpu.plain))} µs per load`,
      },
      {
        metric: 'context check in-process: hand-written verifier',
        value: cost.ownUs,
        unit: 'µs',
        target: '',
        pass: null,
        note: `median of ${VERIFY_BLOCKS / 2} blocks of ${VERIFY_CALLS}`,
      },
      {
        metric: "context check in-process: jose's jwtVerify (HS256)",
        value: cost.joseUs,
        unit: 'µs',
        target: '',
        pass: null,
        note: `median of ${VERIFY_BLOCKS / 2} blocks of ${VERIFY_CALLS}, alternated with the row above`,
      },
    ];
    const results = {
      ...resultsHeader('visitor'),
      wrk: wrkVersion(),
      rows,
      ratios,
      control,
      serverCpuUsPerLoad: cpu,
      verifier: cost,
    };
    writeResults('visitor', results);
    return results;
  } finally {
    for (const s of running) await s.stop();
    killAll();
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const results = await run();
  printTable(results);
}
