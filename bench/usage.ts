/**
 * Usage analytics benchmarks: what per-day recording costs a widget load, the usage
 * counter's memory, and the time of GET /v1/usage.
 *
 *  - Throughput of POST /v1/widget/load with per-day recording against the build before
 *    it: the same tree compiled twice, once as it is and once with the per-day count in
 *    the usage counter taken out (the one line that adds a load to its day, calculator and
 *    origin), so nothing else differs. Both executables run on copies of one database,
 *    pinned to the server core and loaded at once by two wrk runs on the client core (the
 *    kernel splits the core between them, so the req/s ratio is their CPU cost ratio under
 *    the same conditions). ROUNDS fresh process pairs, SHARED_RUNS runs each. The wrk
 *    script cycles through 50 calculator × origin pairs, so loads land on several rows.
 *  - Memory per 10,000 distinct (calcId, domain) pairs in a day: the usage counter's heap
 *    growth after 10,000 loads on distinct pairs (real store on a temp SQLite file),
 *    measured after a full GC, and what is left after the flush.
 *  - GET /v1/usage of the compiled executable over one account with 366 days × 12
 *    calculators × 50 domains of rows (219,600): p50 of the default range (the 30 days
 *    ending today: 18,000 rows, what the dashboard asks first) and of the whole year.
 *
 * Runs on its own (`bun bench/usage.ts`) or from `bench/run.ts`. Writes
 * bench/results/usage.json. Tunables (env): BENCH_ROUNDS (default 4), BENCH_SHARED_RUNS
 * (default 3), BENCH_DURATION (s, default 3), BENCH_USAGE_SAMPLES (default 40).
 */
import { Database } from 'bun:sqlite';
import { cpSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileExecutable } from '../cli/build.ts';
import { openDatabase } from '../src/db/client.ts';
import { createUsageStore } from '../src/db/usage-store.ts';
import { createUsageCounter } from '../src/usage/counter.ts';
import { api, BENCH_PASSWORD, signUpWithDomain } from './lib/api.ts';
import { pairedThroughput, ratioRow } from './lib/paired-throughput.ts';
import {
  hasTaskset,
  inWorkDir,
  pinned,
  SERVER_CORE,
  serveCommand,
  startListening,
  unreachedLimits,
} from './lib/processes.ts';
import { waitForQuiet } from './lib/proc-stats.ts';
import { printTable, progress, resultsHeader, ROOT, writeResults, type BenchResults, type Row } from './lib/report.ts';
import { median, quantile, round1 } from './lib/sampling.ts';
import { calculatorIds } from '../src/calculators/index.ts';
import { wrkRotationScript } from './lib/wrk.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const SHARED_RUNS = Number(process.env.BENCH_SHARED_RUNS ?? 3);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 3);
const SAMPLES = Number(process.env.BENCH_USAGE_SAMPLES ?? 40);
const HUGE = '1000000000';
const SERVE_FLAGS = unreachedLimits('free', HUGE);

const CALCULATORS = calculatorIds;
const DOMAINS = Array.from({ length: 50 }, (_, i) => `https://site${i}.shop.example`);
const YEAR_DAYS = 366;

export const TARGETS = { throughputRatio: 0.97, usageP50Ms: 20 };

/** The line that records a load per day; the baseline build is the tree without it. */
const PER_DAY_LINE = "countDay(e.days, day, calcId, domain, 'loads');";

/** Compiles the working tree, and a copy of it without per-day recording. */
function buildPair(work: string): { product: string; baseline: string } {
  const product = join(work, 'calc-per-day');
  const built = compileExecutable(product);
  if (!built.ok) throw new Error(`build failed:\n${built.output}`);
  progress(`usage: built the working tree in ${built.ms} ms`);

  const tree = join(work, 'tree-before');
  const skip = new Set(['node_modules', 'dist', '.git', 'data'].map((name) => join(ROOT, name)));
  cpSync(ROOT, tree, { recursive: true, filter: (path) => !skip.has(path) });
  symlinkSync(join(ROOT, 'node_modules'), join(tree, 'node_modules'));
  const counterFile = join(tree, 'src', 'usage', 'counter.ts');
  const source = readFileSync(counterFile, 'utf8');
  if (!source.includes(PER_DAY_LINE))
    throw new Error(`src/usage/counter.ts no longer holds "${PER_DAY_LINE}": update the baseline of bench/usage.ts`);
  writeFileSync(counterFile, source.replace(PER_DAY_LINE, ''));
  const baseline = join(work, 'calc-before');
  const before = compileExecutable(baseline, 'cli/bin.ts', tree);
  if (!before.ok) throw new Error(`baseline build failed:\n${before.output}`);
  progress(`usage: built the tree without per-day recording in ${before.ms} ms`);
  return { product, baseline };
}

/** An account with a wildcard origin, made through the API; answers its email and key. */
async function makeAccount(bin: string, dataDir: string): Promise<{ email: string; apiKey: string }> {
  const server = await startListening(serveCommand(bin, dataDir, SERVE_FLAGS));
  try {
    return await signUpWithDomain(server.url, 'https://*.shop.example');
  } finally {
    await server.stop();
  }
}

async function throughput(work: string, bins: { product: string; baseline: string }) {
  const baseDir = join(work, 'throughput-data');
  const { apiKey } = await makeAccount(bins.product, baseDir);
  // 50 of the 600 calculator × origin pairs in turn, each with its page's Origin header.
  const requests = CALCULATORS.slice(0, 10).flatMap((calcId) =>
    DOMAINS.slice(0, 5).map((domain) => ({ origin: domain, body: JSON.stringify({ apiKey, domain, calcId }) })),
  );
  const script = wrkRotationScript(
    work,
    'usage-load',
    requests.map(
      (r, i) =>
        `  requests[${i + 1}] = wrk.format("POST", nil, { ["Content-Type"] = "application/json", ["Origin"] = ${JSON.stringify(r.origin)} }, ${JSON.stringify(r.body)})`,
    ),
  );

  const side = (label: string, bin: string) => ({
    label,
    command: (dir: string) => serveCommand(bin, dir, SERVE_FLAGS),
  });
  return pairedThroughput({
    bench: 'usage',
    work,
    baseDir,
    script,
    rounds: ROUNDS,
    sharedRuns: SHARED_RUNS,
    durationS: DURATION_S,
    before: side('baseline', bins.baseline),
    after: side('product', bins.product),
  });
}

/** Heap growth of the counter holding 10,000 distinct pairs of one day, and after the flush. */
async function memoryPerPairs(work: string, pairs = 10_000) {
  const database = openDatabase(join(work, 'memory-data'));
  try {
    database.sqlite.run(
      "INSERT INTO accounts (id, email, password_hash, plan, api_key, created_at) VALUES ('a1', 'a@x.example', 'h', 'free', 'pk_memory', '2026-01-01T00:00:00Z')",
    );
    const counter = createUsageCounter(createUsageStore(database.db));
    // Strings as the server holds them: calculator ids are shared constants, origins
    // come from the origin cache, so both exist before the loads.
    const domains = Array.from({ length: pairs / CALCULATORS.length + 1 }, (_, i) => `https://site${i}.shop.example`);
    await counter.tryCount('a1', '2026-11-25', Number.MAX_SAFE_INTEGER, 'bmi', 'https://warm.example');
    await counter.flush();
    Bun.gc(true);
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < pairs; i++)
      await counter.tryCount(
        'a1',
        '2026-11-25',
        Number.MAX_SAFE_INTEGER,
        CALCULATORS[i % CALCULATORS.length] as string,
        domains[Math.floor(i / CALCULATORS.length)] as string,
      );
    Bun.gc(true);
    const held = process.memoryUsage().heapUsed - before;
    const flushStarted = performance.now();
    await counter.flush();
    const flushMs = performance.now() - flushStarted;
    Bun.gc(true);
    const afterFlush = process.memoryUsage().heapUsed - before;
    const rows = database.sqlite.query('SELECT count(*) AS n FROM usage_daily').get() as { n: number };
    if (rows.n !== pairs + 1) throw new Error(`expected ${pairs + 1} rows after the flush, found ${rows.n}`);
    return { pairs, heldMb: held / 1024 / 1024, afterFlushMb: afterFlush / 1024 / 1024, flushMs };
  } finally {
    database.close();
  }
}

/** One account with a year of rows for every calculator on 50 sites, written straight to the file. */
function writeYear(dataDir: string, today: Date): number {
  const db = new Database(join(dataDir, 'calc.db'));
  try {
    const { id } = db.query('SELECT id FROM accounts').get() as { id: string };
    const insert = db.prepare(
      'INSERT INTO usage_daily (account_id, day, calc_id, domain, loads) VALUES (?, ?, ?, ?, ?)',
    );
    let rows = 0;
    db.transaction(() => {
      for (let d = 0; d < YEAR_DAYS; d++) {
        const day = new Date(today.getTime() - d * 86_400_000).toISOString().slice(0, 10);
        for (const calcId of CALCULATORS)
          for (const [k, domain] of DOMAINS.entries()) {
            insert.run(id, day, calcId, domain, 1 + ((d * 31 + k * 7) % 500));
            rows += 1;
          }
      }
    })();
    return rows;
  } finally {
    db.close();
  }
}

async function usageLatency(work: string, bin: string) {
  const dataDir = join(work, 'year-data');
  const { email } = await makeAccount(bin, dataDir);
  const rows = writeYear(dataDir, new Date());
  const server = await startListening(pinned(SERVER_CORE, serveCommand(bin, dataDir, SERVE_FLAGS)));
  try {
    const { token } = await api(server.url, 'POST', '/v1/auth/login', { email, password: BENCH_PASSWORD });
    const today = new Date().toISOString().slice(0, 10);
    const yearAgo = new Date(Date.now() - (YEAR_DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
    const measure = async (query: string, samples: number) => {
      const times: number[] = [];
      let body = { rows: [] as unknown[] };
      let bytes = 0;
      for (let i = 0; i < samples + 3; i++) {
        const started = performance.now();
        const response = await fetch(`${server.url}/v1/usage${query}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        const text = await response.text();
        const ms = performance.now() - started;
        if (response.status !== 200) throw new Error(`GET /v1/usage${query} → ${response.status}: ${text}`);
        // The first answers warm the JIT; they are not measured.
        if (i >= 3) times.push(ms);
        bytes = text.length;
        if (i === 0) body = JSON.parse(text);
      }
      return { p50: median(times), p90: quantile(times, 0.9), rows: body.rows.length, bytes };
    };
    await waitForQuiet();
    const month = await measure('', SAMPLES);
    await waitForQuiet();
    const year = await measure(`?from=${yearAgo}&to=${today}`, Math.max(5, Math.round(SAMPLES / 4)));
    return { storedRows: rows, month, year };
  } finally {
    await server.stop();
  }
}

export async function run(): Promise<BenchResults> {
  if (Bun.which('wrk') === null) throw new Error('wrk is not installed: apt-get install -y wrk');
  return inWorkDir('calc-bench-usage-', async (work) => {
    progress(`usage: ${hasTaskset ? `servers on core ${SERVER_CORE}` : 'taskset absent: unpinned'}`);
    const bins = buildPair(work);
    const memory = await memoryPerPairs(work);
    progress(`usage: ${memory.pairs} pairs hold ${memory.heldMb.toFixed(2)} MB until the flush`);
    const latency = await usageLatency(work, bins.product);
    progress(
      `usage: GET /v1/usage p50 ${latency.month.p50.toFixed(1)} ms (30 days), ${latency.year.p50.toFixed(1)} ms (a year)`,
    );
    const load = await throughput(work, bins);

    const rows: Row[] = [
      ratioRow(
        'load: throughput with per-day recording / before',
        load,
        ROUNDS,
        TARGETS.throughputRatio,
        `both loaded at once on core ${SERVER_CORE}`,
      ),
      {
        metric: `counter memory for ${memory.pairs.toLocaleString('en-US')} distinct (calcId, domain) pairs in a day`,
        value: round1(memory.heldMb * 100) / 100,
        unit: 'MB',
        target: '',
        pass: null,
        note: `heap growth after a full GC, ${Math.round((memory.heldMb * 1024 * 1024) / memory.pairs)} bytes per pair, held until the next flush (at most a second); ${memory.afterFlushMb.toFixed(2)} MB after it; the flush of those rows took ${memory.flushMs.toFixed(0)} ms`,
      },
      {
        metric: `GET /v1/usage p50, default range (30 days × ${CALCULATORS.length} × ${DOMAINS.length})`,
        value: round1(latency.month.p50),
        unit: 'ms',
        target: `≤ ${TARGETS.usageP50Ms}`,
        pass: latency.month.p50 <= TARGETS.usageP50Ms,
        note: `${latency.month.rows.toLocaleString('en-US')} rows, ${(latency.month.bytes / 1024 / 1024).toFixed(1)} MB of JSON, from ${latency.storedRows.toLocaleString('en-US')} stored rows (${YEAR_DAYS} days × ${CALCULATORS.length} calculators × ${DOMAINS.length} domains); p90 ${latency.month.p90.toFixed(1)} ms; ${SAMPLES} sequential requests over HTTP`,
      },
      {
        metric: `GET /v1/usage p50, the whole year (${YEAR_DAYS} days × ${CALCULATORS.length} × ${DOMAINS.length})`,
        value: round1(latency.year.p50),
        unit: 'ms',
        // Reported, not targeted: the 20 ms is for the default range (docs/decisions.md, "Usage analytics").
        target: '',
        pass: null,
        note: `${latency.year.rows.toLocaleString('en-US')} rows, ${(latency.year.bytes / 1024 / 1024).toFixed(1)} MB of JSON; p90 ${latency.year.p90.toFixed(1)} ms`,
      },
    ];
    const results: BenchResults = {
      ...resultsHeader('usage'),
      config: { rounds: ROUNDS, sharedRuns: SHARED_RUNS, durationS: DURATION_S, samples: SAMPLES },
      rows,
      throughput: load,
      memory,
      latency,
    };
    writeResults('usage', results);
    return results;
  });
}

if (import.meta.main) printTable(await run());
