/**
 * Part 3 of bench/webhook.ts: 500 loads whose webhook never answers (64 Extra accounts ×
 * ≤ 8, the in-flight caps), fired at once on raw sockets; during those 5 s, wrk on verify
 * and on loads of an account without a webhook versus the same right before (alternated
 * episodes); every hanging load must answer 200 with values {} in 5.0–5.2 s; VmRSS growth
 * of the server. A load with a prompt webhook is sent during each episode as a probe.
 *
 * Env: BENCH_WEBHOOK_EPISODES (2 per route), BENCH_WEBHOOK_EXTRA_EPISODES (2 in all),
 * BENCH_MAX_INTERFERENCE (0.2 cores).
 */
import { readFileSync, statSync } from 'node:fs';
import type { Socket } from 'bun';
import { ORIGIN, widgetBody } from './lib/api.ts';
import type { Started } from './lib/processes.ts';
import { vmRssMb } from './lib/proc-stats.ts';
import { progress, type Row } from './lib/report.ts';
import { leastDisturbed, MAX_INTERFERENCE, median, round2, round3, sleep } from './lib/sampling.ts';
import { wrk, type WrkResult } from './lib/wrk.ts';
import { PREFILL_VALUES, targetStats, widgetLoad, type Account } from './webhook-setup.ts';

export const EPISODES = Number(process.env.BENCH_WEBHOOK_EPISODES ?? 2);
const EXTRA_EPISODES = Number(process.env.BENCH_WEBHOOK_EXTRA_EPISODES ?? 2);
export const WARMUP_S = 1;
export const EPISODE_WRK_S = 3;
export const HANGING_LOADS = 500;

export const HANGING_TARGETS = {
  duringRatio: 0.8,
  duringP99Ms: 50,
  hangMinS: 5.0,
  hangMaxS: 5.2,
  rssGrowthMb: 60,
};
const TARGETS = HANGING_TARGETS;

interface HangingLoad {
  status: number;
  seconds: number;
  valuesEmpty: boolean;
  error?: string;
}

export interface Episode {
  route: 'verify' | 'load';
  before: WrkResult;
  during: WrkResult;
  /** Seconds from firing to the start of the `during` wrk run, and to its end. */
  duringWindowS: [number, number];
  connectMs: number;
  hanging: {
    answered: number;
    ok200: number;
    valuesEmpty: number;
    minS: number;
    medianS: number;
    maxS: number;
    errors: string[];
  };
  /** Webhook requests open at the target at the peak (of HANGING_LOADS). */
  targetOpenPeak: number;
  rssBeforeMb: number;
  rssPeakMb: number;
  rssGrowthMb: number;
  probe: { seconds: number; status: number; valuesFilled: boolean } | null;
  /** The hanging loads as the server's request log timed them (handler start to answer). */
  serverSide: { count: number; minMs: number; maxMs: number };
  /** Cores used by other processes: the worse of the two wrk runs. */
  interference: number;
}

// ── 500 loads on raw sockets (no client-side connection cap) ─────────────────

interface RawLoad {
  fire(): void;
  done: Promise<HangingLoad>;
}

/**
 * Opens one TCP connection per load first; `fire()` then writes the request and the
 * clock runs from that write to the last byte of the answer. Raw sockets because Bun's
 * fetch sends at most 256 requests at once (BUN_CONFIG_MAX_HTTP_REQUESTS).
 */
async function openRawLoad(host: string, port: number, body: string): Promise<RawLoad> {
  const request = Buffer.from(
    `POST /v1/widget/load HTTP/1.1\r\nHost: ${host}:${port}\r\nContent-Type: application/json\r\nOrigin: ${ORIGIN}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  let firedAt = 0;
  let chunks: Buffer[] = [];
  let settle: (result: HangingLoad) => void = () => {};
  const done = new Promise<HangingLoad>((resolve) => {
    settle = resolve;
  });
  let settled = false;
  let pending: Buffer | null = null;
  const finish = (error?: string) => {
    if (settled) return;
    settled = true;
    const seconds = (performance.now() - firedAt) / 1000;
    const raw = Buffer.concat(chunks);
    chunks = [];
    const headEnd = raw.indexOf('\r\n\r\n');
    const status = Number(
      /^HTTP\/1\.1 (\d{3})/.exec(raw.subarray(0, Math.max(0, headEnd)).toString('latin1'))?.[1] ?? 0,
    );
    let valuesEmpty = false;
    try {
      const json = JSON.parse(raw.subarray(headEnd + 4).toString('utf8')) as { values?: Record<string, unknown> };
      valuesEmpty = json.values !== undefined && Object.keys(json.values).length === 0;
    } catch {
      error ??= 'answer is not JSON';
    }
    settle({ status, seconds, valuesEmpty, error });
  };
  const complete = (): boolean => {
    const raw = Buffer.concat(chunks);
    chunks = [raw];
    const headEnd = raw.indexOf('\r\n\r\n');
    if (headEnd === -1) return false;
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(raw.subarray(0, headEnd).toString('latin1'));
    return length !== null && raw.length - headEnd - 4 >= Number(length[1]);
  };
  const socket: Socket = await Bun.connect({
    hostname: host,
    port,
    socket: {
      data(_socket, data) {
        chunks.push(Buffer.from(data));
        if (complete()) {
          finish();
          _socket.end();
        }
      },
      drain(s) {
        if (pending) {
          const written = s.write(pending);
          pending = written < pending.length ? pending.subarray(written) : null;
        }
      },
      close() {
        finish(firedAt === 0 ? 'closed before firing' : undefined);
      },
      error(_socket, error) {
        finish(String(error));
      },
    },
  });
  return {
    fire() {
      firedAt = performance.now();
      const written = socket.write(request);
      if (written < request.length) pending = request.subarray(Math.max(0, written));
    },
    done,
  };
}

// ── episodes ─────────────────────────────────────────────────────────────────

function summariseHanging(loads: HangingLoad[]): Episode['hanging'] {
  const seconds = loads.map((l) => l.seconds);
  const errors = [...new Set(loads.filter((l) => l.error).map((l) => l.error as string))].slice(0, 5);
  return {
    answered: loads.filter((l) => l.status > 0).length,
    ok200: loads.filter((l) => l.status === 200).length,
    valuesEmpty: loads.filter((l) => l.status === 200 && l.valuesEmpty).length,
    minS: round3(Math.min(...seconds)),
    medianS: round3(median(seconds)),
    maxS: round3(Math.max(...seconds)),
    errors,
  };
}

export interface EpisodeContext {
  server: Started;
  target: Started;
  targetUrl: string;
  hang: Account[];
  probeAccount: Account;
  scripts: { verify: string; load: string };
  /** The server's stderr (JSON log lines, one per request). */
  logFile: string;
}

/** Durations (ms) of the slow loads in the server's request log after `offset`. */
function serverSideLoadMs(logFile: string, offset: number): number[] {
  const text = readFileSync(logFile).subarray(offset).toString('utf8');
  const out: number[] = [];
  for (const line of text.split('\n')) {
    if (!line.includes('/v1/widget/load')) continue;
    try {
      const entry = JSON.parse(line) as { msg?: string; path?: string; ms?: number };
      if (
        entry.msg === 'request' &&
        entry.path === '/v1/widget/load' &&
        typeof entry.ms === 'number' &&
        entry.ms >= 1000
      )
        out.push(entry.ms);
    } catch {
      // a line cut by the read: ignore
    }
  }
  return out;
}

/** One episode: wrk before; 500 hanging loads; wrk during; every hanging answer. */
async function episode(ctx: EpisodeContext, route: 'verify' | 'load'): Promise<Episode> {
  const { server } = ctx;
  const watch = { serverPid: server.proc.pid, helperPids: [ctx.target.proc.pid] };
  const routeUrl = `${server.url}/v1/widget/${route}`;
  await wrk(routeUrl, ctx.scripts[route], WARMUP_S, watch);
  const before = await wrk(routeUrl, ctx.scripts[route], EPISODE_WRK_S, watch);

  const { hostname, port } = new URL(server.url);
  const connectStarted = performance.now();
  const loads = await Promise.all(
    Array.from({ length: HANGING_LOADS }, (_, i) =>
      openRawLoad(hostname, Number(port), widgetBody(ctx.hang[i % ctx.hang.length]!.apiKey)),
    ),
  );
  const connectMs = performance.now() - connectStarted;
  await sleep(100); // let the server settle the new connections
  const rssBeforeMb = vmRssMb(server.proc.pid);
  const logOffset = statSync(ctx.logFile).size;
  let rssPeakMb = rssBeforeMb;
  const sampler = setInterval(() => {
    try {
      rssPeakMb = Math.max(rssPeakMb, vmRssMb(server.proc.pid));
    } catch {
      // the process is gone; the answers will say so
    }
  }, 25);

  const fired = performance.now();
  for (const load of loads) load.fire();
  const answers = Promise.all(loads.map((l) => l.done));

  // Wait until the webhook requests stop arriving at the target (≤ 1 s).
  let targetOpenPeak = 0;
  let stableSince = performance.now();
  while (performance.now() - fired < 1000) {
    await sleep(50);
    const open = (await targetStats(ctx.targetUrl)).open;
    if (open !== targetOpenPeak) stableSince = performance.now();
    targetOpenPeak = Math.max(targetOpenPeak, open);
    if (open >= HANGING_LOADS || (open > 0 && performance.now() - stableSince >= 200)) break;
  }

  // A load of an account whose webhook answers at once, sent while the others hang.
  const probeStarted = performance.now();
  const probe = widgetLoad(server.url, ctx.probeAccount.apiKey).then((r) => ({
    seconds: round3((performance.now() - probeStarted) / 1000),
    status: r.status,
    valuesFilled: Bun.deepEquals(r.values, PREFILL_VALUES),
  }));

  const windowStart = (performance.now() - fired) / 1000;
  const during = await wrk(routeUrl, ctx.scripts[route], EPISODE_WRK_S, watch);
  const windowEnd = (performance.now() - fired) / 1000;
  targetOpenPeak = Math.max(targetOpenPeak, (await targetStats(ctx.targetUrl)).open);

  const results = await Promise.race([answers, sleep(12_000).then(() => null)]);
  clearInterval(sampler);
  if (results === null) throw new Error('hanging loads did not all answer within 12 s');
  const probeResult = await Promise.race([probe, sleep(8000).then(() => null)]);
  await sleep(500); // connections close, the target sees the aborts, the log is written
  // The HANGING_LOADS slowest loads in the log: the probe (< 5 s) and wrk's loads are not among them.
  const serverMs = serverSideLoadMs(ctx.logFile, logOffset)
    .sort((a, b) => b - a)
    .slice(0, HANGING_LOADS);
  return {
    route,
    before,
    during,
    duringWindowS: [round2(windowStart), round2(windowEnd)],
    connectMs: round2(connectMs),
    hanging: summariseHanging(results),
    targetOpenPeak,
    rssBeforeMb: round2(rssBeforeMb),
    rssPeakMb: round2(rssPeakMb),
    rssGrowthMb: round2(rssPeakMb - rssBeforeMb),
    probe: probeResult,
    serverSide: { count: serverMs.length, minMs: Math.min(...serverMs), maxMs: Math.max(...serverMs) },
    interference: Math.max(before.interferenceCores ?? 0, during.interferenceCores ?? 0),
  };
}

export function logEpisode(label: string, e: Episode): void {
  progress(
    `webhook: ${label} ${e.route}: before ${Math.round(e.before.requestsPerSec)} req/s p99 ${e.before.p99Ms} ms (other load ${e.before.interferenceCores} cores), during ${Math.round(e.during.requestsPerSec)} req/s p99 ${e.during.p99Ms} ms ` +
      `(window ${e.duringWindowS[0]}–${e.duringWindowS[1]} s, other load ${e.during.interferenceCores} cores); hanging: ${e.hanging.ok200}/${HANGING_LOADS} 200, ${e.hanging.valuesEmpty} empty, ` +
      `${e.hanging.minS}/${e.hanging.medianS}/${e.hanging.maxS} s (server log ${e.serverSide.minMs}–${e.serverSide.maxMs} ms); target open peak ${e.targetOpenPeak}; RSS +${e.rssGrowthMb} MB; ` +
      `probe ${e.probe ? `${e.probe.seconds} s ${e.probe.valuesFilled ? 'filled' : 'defaults'}` : 'no answer'}`,
  );
}

/**
 * EPISODES episodes per route (verify, load), alternated, plus up to EXTRA_EPISODES for a
 * route whose episodes other processes disturbed; the rows of the episodes: timings over
 * the EPISODES least disturbed per route, correctness over all.
 */
export async function hangingEpisodes(
  ctx: EpisodeContext,
): Promise<{ episodes: Episode[]; kept: number[]; rows: Row[] }> {
  const episodes: Episode[] = [];
  const runEpisode = async (route: 'verify' | 'load') => {
    const e = await episode(ctx, route);
    episodes.push(e);
    logEpisode(`episode ${episodes.length}`, e);
  };
  for (let i = 0; i < EPISODES; i++) for (const route of ['verify', 'load'] as const) await runEpisode(route);
  // Repeat a route whose episodes were disturbed by other processes (EXTRA_EPISODES in all).
  for (let extra = 0; extra < EXTRA_EPISODES; extra++) {
    const clean = (route: string) =>
      episodes.filter((e) => e.route === route && e.interference <= MAX_INTERFERENCE).length;
    const total = (route: string) => episodes.filter((e) => e.route === route).length;
    const route = (['verify', 'load'] as const)
      .filter((r) => clean(r) < EPISODES)
      .sort((a, b) => clean(a) - clean(b) || total(a) - total(b))[0];
    if (!route) break;
    await runEpisode(route);
  }
  const keptIndexes = (['verify', 'load'] as const).flatMap((route) => {
    const indexes = episodes.flatMap((e, i) => (e.route === route ? [i] : []));
    return leastDisturbed(
      indexes.map((i) => episodes[i]!),
      EPISODES,
    ).map((k) => indexes[k]!);
  });
  const kept = keptIndexes.sort((a, b) => a - b).map((i) => episodes[i]!);

  const rows: Row[] = [];
  for (const route of ['verify', 'load'] as const) {
    const list = kept.filter((e) => e.route === route);
    const cpuBefore = median(list.map((e) => e.before.serverCpuUsPerRequest ?? Number.NaN));
    const cpuDuring = median(list.map((e) => e.during.serverCpuUsPerRequest ?? Number.NaN));
    const noisy = list.filter((e) => e.interference > MAX_INTERFERENCE).length;
    const beforeRps = median(list.map((e) => e.before.requestsPerSec));
    const duringRps = median(list.map((e) => e.during.requestsPerSec));
    const ratio = round3(duringRps / beforeRps);
    const p99 = Math.max(...list.map((e) => e.during.p99Ms));
    const label = route === 'verify' ? 'verify' : 'load (no webhook)';
    rows.push(
      {
        metric: `${label} during 500 hanging / before`,
        value: ratio,
        unit: '×',
        target: `≥ ${TARGETS.duringRatio}`,
        pass: ratio >= TARGETS.duringRatio,
        note:
          `${Math.round(duringRps)} vs ${Math.round(beforeRps)} req/s, medians of the ${list.length} least disturbed of ${episodes.filter((e) => e.route === route).length} episodes; ` +
          `per episode ${list.map((e) => round2(e.during.requestsPerSec / e.before.requestsPerSec)).join(', ')}; server CPU per request ${round2(cpuDuring)} vs ${round2(cpuBefore)} µs` +
          (noisy ? `; ${noisy} kept episode(s) had other processes using > ${MAX_INTERFERENCE} cores` : ''),
      },
      {
        metric: `${label} p99 during 500 hanging`,
        value: p99,
        unit: 'ms',
        target: `≤ ${TARGETS.duringP99Ms} ms`,
        pass: p99 <= TARGETS.duringP99Ms,
        note: `worst of ${list.length} episodes (before: ${list.map((e) => e.before.p99Ms).join(', ')} ms; during: ${list.map((e) => e.during.p99Ms).join(', ')} ms)`,
      },
    );
  }
  // Correctness over every episode; timings over the kept (least disturbed) ones.
  const all = episodes.map((e) => e.hanging);
  const hangCount = HANGING_LOADS * episodes.length;
  const ok = all.reduce((n, h) => n + h.valuesEmpty, 0);
  const keptHanging = kept.map((e) => e.hanging);
  const minS = Math.min(...keptHanging.map((h) => h.minS));
  const maxS = Math.max(...keptHanging.map((h) => h.maxS));
  const medS = median(keptHanging.map((h) => h.medianS));
  const allMinS = Math.min(...all.map((h) => h.minS));
  const allMaxS = Math.max(...all.map((h) => h.maxS));
  const serverMin = Math.min(...kept.map((e) => e.serverSide.minMs));
  const serverMax = Math.max(...kept.map((e) => e.serverSide.maxMs));
  const rssGrowth = Math.max(...episodes.map((e) => e.rssGrowthMb));
  const openPeak = Math.max(...episodes.map((e) => e.targetOpenPeak));
  const probes = episodes.map((e) => e.probe);
  const timingNote = `${kept.length} least disturbed episodes; over all ${episodes.length}: ${Math.round(allMinS * 1000)}–${Math.round(allMaxS * 1000)} ms`;
  rows.push(
    {
      metric: 'hanging loads: 200 with values {}',
      value: ok,
      unit: '',
      target: `= ${hangCount}`,
      pass: ok === hangCount,
      note: `every episode: ${episodes.length} × ${HANGING_LOADS}${all.some((h) => h.errors.length) ? `; errors: ${[...new Set(all.flatMap((h) => h.errors))].join('; ')}` : ''}`,
    },
    {
      metric: 'hanging loads: fastest answer',
      value: Math.round(minS * 1000),
      unit: 'ms',
      target: `≥ ${TARGETS.hangMinS * 1000} ms`,
      pass: minS >= TARGETS.hangMinS,
      note: timingNote,
    },
    {
      metric: 'hanging loads: median answer',
      value: Math.round(medS * 1000),
      unit: 'ms',
      target: '',
      pass: null,
      note: "median of the episodes' medians; client clock, from the request write to the last byte of the answer",
    },
    {
      metric: 'hanging loads: slowest answer',
      value: Math.round(maxS * 1000),
      unit: 'ms',
      target: `≤ ${TARGETS.hangMaxS * 1000} ms`,
      pass: maxS <= TARGETS.hangMaxS,
      note: timingNote,
    },
    {
      metric: 'hanging loads: server-side range',
      value: Math.round(serverMax),
      unit: 'ms',
      target: '',
      pass: null,
      note: `the server's request log (handler start to answer) in the kept episodes: ${Math.round(serverMin)}–${Math.round(serverMax)} ms`,
    },
    {
      metric: 'server RSS growth during an episode',
      value: rssGrowth,
      unit: 'MB',
      target: `≤ ${TARGETS.rssGrowthMb} MB`,
      pass: rssGrowth <= TARGETS.rssGrowthMb,
      note: `worst of all episodes; VmRSS ${episodes.map((e) => `${e.rssBeforeMb}→${e.rssPeakMb}`).join(', ')} MB`,
    },
    {
      metric: 'webhook requests reaching the target',
      value: openPeak,
      unit: '',
      target: '',
      pass: null,
      note: `of ${HANGING_LOADS} in flight; the server caps webhook calls in flight at what Bun's fetch runs at once (BUN_CONFIG_MAX_HTTP_REQUESTS, 256 by default)`,
    },
    {
      metric: 'prompt-webhook load during the episode',
      value: Math.round(median(probes.map((p) => p?.seconds ?? Number.NaN)) * 1000),
      unit: 'ms',
      target: '',
      pass: null,
      note: `another account whose webhook answers at once: ${probes.map((p) => (p ? `${p.seconds} s ${p.valuesFilled ? 'pre-filled' : 'defaults'}` : 'no answer')).join(', ')}`,
    },
  );
  return { episodes, kept: keptIndexes, rows };
}
