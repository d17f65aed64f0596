/**
 * Webhook benchmarks (the guarded pull). Method of docs/performance.md:
 * every figure is a ratio or a difference against a baseline measured in the same run,
 * baseline and product alternated (A B A B …), medians quoted.
 *
 *  1. guardedFetch() versus a plain fetch() to the same in-process Bun.serve on 127.0.0.2,
 *     one call at a time (bench/webhook-fetch.ts, run pinned to the server core): median
 *     µs per call of each and the added µs per call; the added CPU µs per call as well,
 *     and two attribution variants that show where the added time goes.
 *  2. POST /v1/widget/load of the compiled server for Extra accounts whose bmi webhook
 *     answers at once versus Extra accounts without a webhook (wrk, alternated): req/s,
 *     p99, server CPU per load, and the ratios.
 *  3. 500 loads whose webhook never answers, and verify / no-webhook loads during them
 *     versus right before (bench/webhook-hanging.ts).
 *
 * Processes: the server on core 1; wrk and the webhook target (bench/webhook-target.ts) on
 * core 0; this process unpinned. `run()` returns the results (bench convention); run on its
 * own (`bun bench/webhook.ts`) it also prints the table. Also callable
 * from bench/run.ts. Writes bench/results/webhook.json.
 *
 * Env: CALC_BENCH_BIN (use this executable instead of building the working tree),
 * BENCH_WEBHOOK_ROUNDS (3), BENCH_WEBHOOK_DURATION (3 s), BENCH_WEBHOOK_EPISODES (2 per
 * route), BENCH_MAX_INTERFERENCE (0.2 cores), BENCH_WEBHOOK_EXTRA_ROUNDS (2),
 * BENCH_WEBHOOK_EXTRA_EPISODES (2 in all),
 * WEBHOOK_FETCH_BLOCKS / WEBHOOK_FETCH_CALLS (see bench/webhook-fetch.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { widgetBody } from './lib/api.ts';
import {
  CLIENT_CORE,
  hasTaskset,
  killAll,
  pinned,
  prepareBinary,
  runToEnd,
  SERVER_CORE,
  serveCommand,
  startListening,
  binaryRecord,
  type BinaryRecord,
} from './lib/processes.ts';
import { printTable, progress, resultsHeader, ROOT, writeResults, type BenchResults, type Row } from './lib/report.ts';
import { leastDisturbed, MAX_INTERFERENCE, median, pairedMedian, round2, round3 } from './lib/sampling.ts';
import { CONNECTIONS, wrk, wrkScript, wrkVersion, type WrkResult } from './lib/wrk.ts';
import type { FetchBenchOutput, VariantName } from './webhook-fetch.ts';
import {
  EPISODE_WRK_S,
  EPISODES,
  HANGING_LOADS,
  HANGING_TARGETS,
  hangingEpisodes,
  WARMUP_S,
  type Episode,
} from './webhook-hanging.ts';
import { createAccounts, PREFILL_VALUES, targetStats, widgetLoad } from './webhook-setup.ts';

const ROUNDS = Number(process.env.BENCH_WEBHOOK_ROUNDS ?? 3);
const DURATION_S = Number(process.env.BENCH_WEBHOOK_DURATION ?? 3);
// A measurement during which other processes used more than MAX_INTERFERENCE cores is
// repeated (up to EXTRA_* times); the least disturbed ones are kept (as bench/server.ts).
const EXTRA_ROUNDS = Number(process.env.BENCH_WEBHOOK_EXTRA_ROUNDS ?? 2);
const HANG_ACCOUNTS = 64; // 64 × 8 per account = 512 ≥ 500 (and the 512 total cap)
const PROMPT_ACCOUNTS = 8; // 32 wrk connections over 8 accounts: ~4 in flight each, cap 8
const PLAIN_ACCOUNTS = 8;
const QUOTA = 100_000_000;
const TARGET_HOST = '127.0.0.2';

export const TARGETS = {
  addedUsPerCall: 40,
  ...HANGING_TARGETS,
};

interface LoadPair {
  plain: WrkResult;
  webhook: WrkResult;
  webhookCallsPerLoad: number;
  interference: number;
}

export interface FetchMedians {
  plainUs: number;
  guardedUs: number;
  optionsUs: number;
  cappedUs: number;
  plainCpuUs: number;
  guardedCpuUs: number;
  optionsCpuUs: number;
  cappedCpuUs: number;
  /** Median of per-round differences guarded − plain (wall, then CPU). */
  addedUs: number;
  addedCpuUs: number;
  addedUsDifferenceOfMedians: number;
  /** Attribution, CPU µs, paired per round. */
  optionsCpuUs_vsPlain: number;
  cappedReaderCpuUs_vsOptions: number;
  restCpuUs_guardedVsCapped: number;
}

export interface WebhookResults extends BenchResults {
  config: Record<string, unknown>;
  binary: BinaryRecord;
  fetch: FetchBenchOutput & { medians: FetchMedians };
  loads: { pairs: LoadPair[]; kept: number[]; medians: Record<string, number> };
  hanging: { episodes: Episode[]; kept: number[] };
}

// ── part 1: guarded fetch versus plain fetch ────────────────────────────────

async function fetchBench(): Promise<WebhookResults['fetch']> {
  const {
    stdout: out,
    stderr: err,
    code,
  } = await runToEnd(pinned(SERVER_CORE, [process.execPath, join(ROOT, 'bench', 'webhook-fetch.ts')]));
  if (code !== 0) throw new Error(`bench/webhook-fetch.ts exited ${code}: ${err}${out}`);
  const output = JSON.parse(out.trim().split('\n').pop() ?? '') as FetchBenchOutput;
  const s = output.samples;
  const c = output.cpuSamples;
  const paired = pairedMedian;
  const wall = (name: VariantName) => round2(median(s[name]));
  const cpu = (name: VariantName) => round2(median(c[name]));
  const medians: FetchMedians = {
    plainUs: wall('plain'),
    guardedUs: wall('guarded'),
    optionsUs: wall('options'),
    cappedUs: wall('options+capped'),
    plainCpuUs: cpu('plain'),
    guardedCpuUs: cpu('guarded'),
    optionsCpuUs: cpu('options'),
    cappedCpuUs: cpu('options+capped'),
    addedUs: round2(paired(s.guarded, s.plain)),
    addedCpuUs: round2(paired(c.guarded, c.plain)),
    addedUsDifferenceOfMedians: round2(median(s.guarded) - median(s.plain)),
    // Attribution (CPU, paired per round): fetch options and signal; the streaming body
    // reader; URL checks, pinning and the rest of guardedFetch.
    optionsCpuUs_vsPlain: round2(paired(c.options, c.plain)),
    cappedReaderCpuUs_vsOptions: round2(paired(c['options+capped'], c.options)),
    restCpuUs_guardedVsCapped: round2(paired(c.guarded, c['options+capped'])),
  };
  return { ...output, medians };
}

// ── the bench ────────────────────────────────────────────────────────────────

export async function run(): Promise<WebhookResults> {
  if (Bun.which('wrk') === null) throw new Error('wrk is not installed: apt-get install -y wrk');
  const started = performance.now();
  const work = mkdtempSync(join(tmpdir(), 'calc-bench-webhook-'));
  const stops: (() => Promise<unknown>)[] = [];
  try {
    // 1. Guarded versus plain fetch (before any server runs, on the server core).
    progress(`webhook: guarded fetch versus plain fetch (pinned to core ${SERVER_CORE})`);
    const fetchResult = await fetchBench();
    progress(
      `webhook: plain ${fetchResult.medians.plainUs} µs, guarded ${fetchResult.medians.guardedUs} µs per call; added ${fetchResult.medians.addedUs} µs ` +
        `(CPU ${fetchResult.medians.plainCpuUs} → ${fetchResult.medians.guardedCpuUs} µs, added ${fetchResult.medians.addedCpuUs}); other load ${fetchResult.interferenceCores} cores`,
    );

    // Server, webhook target, accounts.
    const binary = prepareBinary(work);
    progress(`webhook: executable ${binary.path} (${binary.note})`);
    const target = await startListening(
      pinned(CLIENT_CORE, [process.execPath, join(ROOT, 'bench', 'webhook-target.ts'), TARGET_HOST]),
    );
    stops.push(target.stop);
    const targetUrl = target.url;
    const dataDir = join(work, 'data');
    const serveArgs = serveCommand(binary.path, dataDir, [
      '--quota-extra',
      String(QUOTA),
      '--quota-free',
      String(QUOTA),
    ]);
    // As deployed (docs/operations.md): Bun may run 1024 requests at once, so the server's
    // webhook cap is the documented 512 and all 500 hanging calls are really in flight.
    const serverEnv = { CALC_WEBHOOK_ALLOW_CIDRS: `${TARGET_HOST}/32`, BUN_CONFIG_MAX_HTTP_REQUESTS: '1024' };
    const server = await startListening(pinned(SERVER_CORE, serveArgs), {
      env: serverEnv,
      stderrFile: join(work, 'server.log'),
    });
    stops.push(server.stop);
    progress(
      `webhook: server ${server.url} (pid ${server.proc.pid}), target ${targetUrl} (pid ${target.proc.pid}); creating accounts`,
    );

    const setupStarted = performance.now();
    const plain = await createAccounts(server.url, binary.path, dataDir, 'plain', PLAIN_ACCOUNTS, null);
    const prompt = await createAccounts(
      server.url,
      binary.path,
      dataDir,
      'prompt',
      PROMPT_ACCOUNTS,
      `${targetUrl}/prefill`,
    );
    const hang = await createAccounts(server.url, binary.path, dataDir, 'hang', HANG_ACCOUNTS, `${targetUrl}/hang`);
    progress(
      `webhook: ${plain.length + prompt.length + hang.length} accounts ready in ${Math.round(performance.now() - setupStarted)} ms`,
    );

    // The set-up is right: a prompt webhook pre-fills, no webhook gives {}.
    const check = await widgetLoad(server.url, prompt[0]!.apiKey);
    if (check.status !== 200 || !Bun.deepEquals(check.values, PREFILL_VALUES))
      throw new Error(`a load with the prompt webhook answered ${check.status} ${JSON.stringify(check.values)}`);
    const checkPlain = await widgetLoad(server.url, plain[0]!.apiKey);
    if (checkPlain.status !== 200 || Object.keys(checkPlain.values).length !== 0)
      throw new Error(`a load without webhook answered ${checkPlain.status} ${JSON.stringify(checkPlain.values)}`);

    // 2. Loads with a prompt webhook versus loads without, alternated.
    const scripts = {
      plainLoad: wrkScript(
        work,
        'plain-load',
        plain.map((a) => widgetBody(a.apiKey)),
      ),
      webhookLoad: wrkScript(
        work,
        'webhook-load',
        prompt.map((a) => widgetBody(a.apiKey)),
      ),
    };
    const loadUrl = `${server.url}/v1/widget/load`;
    const watch = { serverPid: server.proc.pid, helperPids: [target.proc.pid] };
    await wrk(loadUrl, scripts.plainLoad, 2, watch);
    await wrk(loadUrl, scripts.webhookLoad, 2, watch);
    const pairs: LoadPair[] = [];
    for (let round = 1; round <= ROUNDS + EXTRA_ROUNDS; round++) {
      if (round > ROUNDS && pairs.filter((p) => p.interference <= MAX_INTERFERENCE).length >= ROUNDS) break;
      const pair: Partial<LoadPair> = {};
      for (const side of ['plain', 'webhook'] as const) {
        const script = side === 'plain' ? scripts.plainLoad : scripts.webhookLoad;
        await wrk(loadUrl, script, WARMUP_S, watch);
        const hits0 = (await targetStats(targetUrl)).prefill;
        const result = await wrk(loadUrl, script, DURATION_S, watch);
        const hits = (await targetStats(targetUrl)).prefill - hits0;
        pair[side] = result;
        if (side === 'webhook') pair.webhookCallsPerLoad = round3(hits / result.requests);
        progress(
          `webhook: loads round ${round} ${side.padEnd(7)} ${Math.round(result.requestsPerSec).toLocaleString('en-US').padStart(6)} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, ` +
            `server CPU ${result.serverCpuUsPerRequest} µs/load${side === 'webhook' ? `, webhook calls/load ${pair.webhookCallsPerLoad}` : ''}, other load ${result.interferenceCores} cores`,
        );
      }
      pair.interference = Math.max(pair.plain!.interferenceCores ?? 0, pair.webhook!.interferenceCores ?? 0);
      pairs.push(pair as LoadPair);
    }
    // The ROUNDS least disturbed pairs, in the order measured.
    const keptPairs = leastDisturbed(pairs, ROUNDS);
    const keptLoadPairs = keptPairs.map((i) => pairs[i]!);
    const m = (side: 'plain' | 'webhook', key: keyof WrkResult) =>
      median(keptLoadPairs.map((p) => p[side][key] as number));
    const loads: WebhookResults['loads'] = {
      pairs,
      kept: keptPairs,
      medians: {
        plainRps: m('plain', 'requestsPerSec'),
        webhookRps: m('webhook', 'requestsPerSec'),
        plainP99Ms: m('plain', 'p99Ms'),
        webhookP99Ms: m('webhook', 'p99Ms'),
        plainCpuUs: m('plain', 'serverCpuUsPerRequest'),
        webhookCpuUs: m('webhook', 'serverCpuUsPerRequest'),
        throughputRatio: round3(m('webhook', 'requestsPerSec') / m('plain', 'requestsPerSec')),
        pairedThroughputRatio: round3(
          median(keptLoadPairs.map((p) => p.webhook.requestsPerSec / p.plain.requestsPerSec)),
        ),
        p99Ratio: round2(m('webhook', 'p99Ms') / m('plain', 'p99Ms')),
        webhookCallsPerLoad: median(keptLoadPairs.map((p) => p.webhookCallsPerLoad)),
        noisyKept: keptLoadPairs.filter((p) => p.interference > MAX_INTERFERENCE).length,
      },
    };

    // 3. 500 hanging loads; verify and no-webhook loads during them versus right before.
    const episodeScripts = {
      verify: wrkScript(
        work,
        'plain-verify',
        plain.map((a) => widgetBody(a.apiKey)),
      ),
      load: scripts.plainLoad,
    };
    const hanging = await hangingEpisodes({
      server,
      target,
      targetUrl,
      hang,
      probeAccount: prompt[0]!,
      scripts: episodeScripts,
      logFile: join(work, 'server.log'),
    });
    await server.stop();

    // ── rows ──
    const f = fetchResult.medians;
    const rows: Row[] = [
      {
        metric: 'plain fetch() per call',
        value: f.plainUs,
        unit: 'µs',
        target: '',
        pass: null,
        note: `median of ${fetchResult.blocks} blocks × ${fetchResult.callsPerBlock} calls, one at a time; CPU ${f.plainCpuUs} µs/call`,
      },
      {
        metric: 'guardedFetch() per call',
        value: f.guardedUs,
        unit: 'µs',
        target: '',
        pass: null,
        note: `CPU ${f.guardedCpuUs} µs/call`,
      },
      {
        metric: 'guarded fetch: added per call',
        value: f.addedUs,
        unit: 'µs',
        target: `≤ ${TARGETS.addedUsPerCall} µs`,
        pass: f.addedUs <= TARGETS.addedUsPerCall,
        note: `median of per-round differences (difference of medians ${f.addedUsDifferenceOfMedians} µs); other processes used ${fetchResult.interferenceCores} cores meanwhile`,
      },
      {
        metric: 'guarded fetch: added CPU per call',
        value: f.addedCpuUs,
        unit: 'µs',
        target: `≤ ${TARGETS.addedUsPerCall} µs`,
        pass: f.addedCpuUs <= TARGETS.addedUsPerCall,
        note:
          `process CPU time, robust to other load. Paired differences: fetch options+signal − plain ${f.optionsCpuUs_vsPlain} µs; ` +
          `readCappedBody − arrayBuffer after the same fetch ${f.cappedReaderCpuUs_vsOptions} µs; the rest of guardedFetch ${f.restCpuUs_guardedVsCapped} µs`,
      },
      {
        metric: 'address check of a public answer (CPU)',
        value: round2(fetchResult.cpu.policyCheckPublicV6Us),
        unit: 'µs',
        target: '',
        pass: null,
        note: `IPv6 ${round2(fetchResult.cpu.policyCheckPublicV6Us)} µs, IPv4 ${round2(fetchResult.cpu.policyCheckPublicV4Us)} µs per address (the allowlisted bench target takes ${round2(fetchResult.cpu.policyCheckAllowlistedUs)} µs); a name adds one lookup: localhost via systemResolver ${round2(fetchResult.resolverLocalhostUs)} µs`,
      },
      {
        metric: 'load without webhook',
        value: loads.medians.plainRps!,
        unit: 'req/s',
        target: '',
        pass: null,
        note: `p99 ${loads.medians.plainP99Ms} ms, server CPU ${loads.medians.plainCpuUs} µs/load`,
      },
      {
        metric: 'load with prompt webhook',
        value: loads.medians.webhookRps!,
        unit: 'req/s',
        target: '',
        pass: null,
        note: `p99 ${loads.medians.webhookP99Ms} ms, server CPU ${loads.medians.webhookCpuUs} µs/load, webhook calls per load ${loads.medians.webhookCallsPerLoad}`,
      },
      {
        metric: 'load: server CPU none / webhook',
        value: round3(loads.medians.plainCpuUs! / loads.medians.webhookCpuUs!),
        unit: '×',
        target: '',
        pass: null,
        note: `the capacity ratio on one core from server CPU time per load (${loads.medians.plainCpuUs} vs ${loads.medians.webhookCpuUs} µs), robust to other processes taking the core`,
      },
      {
        metric: 'load: throughput webhook / none',
        value: loads.medians.throughputRatio!,
        unit: '×',
        target: '',
        pass: null,
        note:
          `ratio of medians of the ${keptPairs.length} least disturbed of ${pairs.length} alternated rounds (median of per-round ratios ${loads.medians.pairedThroughputRatio}); ` +
          `p99 ratio ${loads.medians.p99Ratio}; server CPU +${round2(loads.medians.webhookCpuUs! - loads.medians.plainCpuUs!)} µs/load` +
          (loads.medians.noisyKept
            ? `; ${loads.medians.noisyKept} kept round(s) had other processes using > ${MAX_INTERFERENCE} cores`
            : ''),
      },
    ];
    rows.push(...hanging.rows);

    const results: WebhookResults = {
      ...resultsHeader('webhook', { wrk: wrkVersion(), taskset: hasTaskset }),
      rows,
      config: {
        rounds: ROUNDS,
        durationS: DURATION_S,
        warmupS: WARMUP_S,
        episodes: EPISODES,
        episodeWrkS: EPISODE_WRK_S,
        connections: CONNECTIONS,
        hangingLoads: HANGING_LOADS,
        accounts: { plain: PLAIN_ACCOUNTS, prompt: PROMPT_ACCOUNTS, hang: HANG_ACCOUNTS },
        serverCore: SERVER_CORE,
        clientCore: CLIENT_CORE,
        serverEnv,
        totalSeconds: Math.round((performance.now() - started) / 1000),
      },
      binary: binaryRecord(binary),
      fetch: fetchResult,
      loads,
      hanging: { episodes: hanging.episodes, kept: hanging.kept },
    };
    const file = writeResults('webhook', results);
    progress(`webhook: wrote ${file} after ${results.config.totalSeconds} s`);
    return results;
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {});
    killAll();
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const results = await run();
  printTable(results);
}
