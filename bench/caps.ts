/**
 * Owner caps on the widget's hot path, in process: what a load costs with no cap set
 * (every account that never sets one) and with every load cap set (out of reach, so each
 * load is checked and counted, none refused).
 *
 * The real app (`createApp`) on a temp SQLite file answers POST /v1/widget/load through
 * `handle`, as the listening server's router would, without the network: what is left is
 * the load's own work (body, lookup, checks, counting, answer). Per-client limits are
 * off, so nothing else that changes per build is measured. ROUNDS short rounds alternate
 * the sides, LOADS loads each; times are the medians of the rounds, and each ratio is the
 * median of the ratios of the same round, so that a busy moment of a shared machine
 * touches both sides of a ratio alike.
 *
 * With BENCH_CAPS_BASELINE=<another checkout> (the tree before owner caps, say) the same
 * rounds also time that tree's app, in this process and alternated with this one's, so
 * both see the same machine: `git worktree add /tmp/before <commit>` (or `git archive`)
 * with node_modules linked, then run this file.
 *
 * Runs on its own (`bun bench/caps.ts`) or from `bench/run.ts`. Writes bench/results/caps.json.
 * Tunables (env): BENCH_CAPS_ROUNDS (default 60), BENCH_CAPS_LOADS (default 5000),
 * BENCH_CAPS_BASELINE (a directory holding another tree).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { printTable, progress, resultsHeader, writeResults, type BenchResults, type Row } from './lib/report.ts';
import { median, round1, round3 } from './lib/sampling.ts';

const ROUNDS = Number(process.env.BENCH_CAPS_ROUNDS ?? 60);
const LOADS = Number(process.env.BENCH_CAPS_LOADS ?? 5_000);
const BASELINE = process.env.BENCH_CAPS_BASELINE;
const ORIGIN = 'https://shop.example';
const HUGE = 1_000_000_000;

/** A load on a capped account may cost at most this much more than one without caps; none set, as before. */
export const TARGETS = { cappedRatio: 1.05, againstBaseline: 1.03 };

/** What this bench uses of an app, the same in every tree that has `createApp`. */
interface App {
  handle(request: Request): Promise<Response>;
  flush(): Promise<void>;
  ready: Promise<void>;
}

async function call(app: App, method: string, path: string, body?: unknown, token?: string) {
  const response = await app.handle(
    new Request(`http://calc.bench${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  return { status: response.status, json: (await response.json()) as Record<string, any> };
}

async function owner(app: App, name: string) {
  const signup = await call(app, 'POST', '/v1/auth/signup', {
    email: `${name}@bench.example`,
    password: 'bench password 123',
  });
  if (signup.status !== 201) throw new Error(`sign-up failed: ${JSON.stringify(signup.json)}`);
  const token = signup.json.token as string;
  await call(app, 'POST', '/v1/domains', { domain: ORIGIN }, token);
  return { token, apiKey: signup.json.account.apiKey as string };
}

/** Nanoseconds per load over `LOADS` loads of one account. */
async function timeLoads(app: App, apiKey: string): Promise<number> {
  const body = JSON.stringify({ apiKey, domain: ORIGIN, calcId: 'bmi' });
  const headers = { 'content-type': 'application/json', origin: ORIGIN };
  const started = Bun.nanoseconds();
  for (let i = 0; i < LOADS; i++) {
    const response = await app.handle(
      new Request('http://calc.bench/v1/widget/load', { method: 'POST', headers, body }),
    );
    if (response.status !== 200) throw new Error(`load answered ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
  }
  return (Bun.nanoseconds() - started) / LOADS;
}

/** The real app of the tree at `root` on a temp SQLite file, with the bench's settings. */
async function appOf(root: string, work: string): Promise<{ app: App; close(): void }> {
  const { createApp } = await import(join(root, 'src', 'app.ts'));
  const { loadServerConfig } = await import(join(root, 'src', 'config.ts'));
  const { openDatabase } = await import(join(root, 'src', 'db', 'client.ts'));
  const { silentLogger } = await import(join(root, 'src', 'logger.ts'));
  const config = loadServerConfig(
    {
      data: work,
      'quota-free': HUGE,
      'rate-widget-per-minute': 0,
      'rate-widget-per-day': 0,
      'rate-signup-per-hour': 0,
    },
    {},
  );
  const database = openDatabase(config.dataDir);
  const app: App = createApp({
    config,
    database,
    jwtSecret: crypto.getRandomValues(new Uint8Array(32)),
    headerKey: crypto.getRandomValues(new Uint8Array(32)),
    logger: silentLogger,
  });
  await app.ready;
  return { app, close: () => database.close() };
}

export async function run(): Promise<BenchResults> {
  const work = mkdtempSync(join(tmpdir(), 'calc-bench-caps-'));
  const opened: { close(): void }[] = [];
  try {
    const here = await appOf(join(import.meta.dir, '..'), join(work, 'here'));
    opened.push(here);
    const app = here.app;
    const plain = await owner(app, 'plain');
    const capped = await owner(app, 'capped');
    const set = await call(
      app,
      'PUT',
      '/v1/account/limits',
      { loadsPerDay: HUGE, loadsPerDayPerDomain: HUGE, pullsPerSecond: HUGE },
      capped.token,
    );
    const hasCaps = set.status === 200;
    progress(hasCaps ? 'caps: owner caps set on the second account' : 'caps: this tree has no owner caps');
    let before: { app: App; apiKey: string } | null = null;
    if (BASELINE) {
      const there = await appOf(BASELINE, join(work, 'baseline'));
      opened.push(there);
      before = { app: there.app, apiKey: (await owner(there.app, 'baseline')).apiKey };
      progress(`caps: the baseline is the tree in ${BASELINE}`);
    }
    // Warm up every path (JIT, the month's and the day's counts in memory).
    await timeLoads(app, plain.apiKey);
    if (hasCaps) await timeLoads(app, capped.apiKey);
    if (before) await timeLoads(before.app, before.apiKey);
    const times = { plain: [] as number[], capped: [] as number[], baseline: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      // Alternating, so a slower moment of the machine touches every side alike.
      if (before) times.baseline.push(await timeLoads(before.app, before.apiKey));
      times.plain.push(await timeLoads(app, plain.apiKey));
      if (hasCaps) times.capped.push(await timeLoads(app, capped.apiKey));
      await app.flush();
      if (before) await before.app.flush();
    }
    const plainNs = median(times.plain);
    const cappedNs = hasCaps ? median(times.capped) : null;
    const baselineNs = before ? median(times.baseline) : null;
    const pairedRatio = (a: number[], b: number[]) => median(a.map((x, i) => x / (b[i] ?? Number.NaN)));
    const ratio = cappedNs === null ? null : pairedRatio(times.capped, times.plain);
    const againstBaseline = baselineNs === null ? null : pairedRatio(times.plain, times.baseline);
    const rows: Row[] = [
      {
        metric: 'load, no cap set',
        value: round1(plainNs / 1000),
        unit: 'µs',
        target: '',
        pass: null,
        note: `median of ${ROUNDS} rounds of ${LOADS} loads through handle(); ratios: median of each round's`,
      },
      {
        metric: 'load, every load cap set',
        value: cappedNs === null ? null : round1(cappedNs / 1000),
        unit: 'µs',
        target: '',
        pass: null,
        note: cappedNs === null ? 'this tree has no owner caps' : undefined,
      },
      {
        metric: 'capped ÷ no cap',
        value: ratio === null ? null : round3(ratio),
        unit: '×',
        target: `≤ ${TARGETS.cappedRatio}`,
        pass: ratio === null ? null : ratio <= TARGETS.cappedRatio,
      },
      {
        metric: 'load, baseline tree',
        value: baselineNs === null ? null : round1(baselineNs / 1000),
        unit: 'µs',
        target: '',
        pass: null,
        note:
          baselineNs === null
            ? 'set BENCH_CAPS_BASELINE to compare with another tree'
            : 'the tree of BENCH_CAPS_BASELINE',
      },
      {
        metric: 'no cap ÷ baseline',
        value: againstBaseline === null ? null : round3(againstBaseline),
        unit: '×',
        target: `≤ ${TARGETS.againstBaseline}`,
        pass: againstBaseline === null ? null : againstBaseline <= TARGETS.againstBaseline,
      },
    ];
    const results: BenchResults = { ...resultsHeader('caps'), rows, samplesNs: times };
    writeResults('caps', results);
    return results;
  } finally {
    for (const database of opened) database.close();
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.main) printTable(await run());
