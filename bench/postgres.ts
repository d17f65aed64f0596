/**
 * Widget loads on PostgreSQL against SQLite mode, in one run: the same executable serves
 * one account from a SQLite data directory and, at the same time, another from a
 * throwaway PostgreSQL on this machine. wrk (32 connections) loads each in turn, A B B A,
 * so drift on the shared machine hits both alike. Reported: throughput of each, their
 * ratio (target ≥ 0.5) and p99 on PostgreSQL (target ≤ 5 ms). The PostgreSQL server is
 * not pinned: its CPU competes with calc's, as on a one-machine install.
 *
 * Runs on its own (`bun bench/postgres.ts`) or from bench/run.ts. Writes
 * bench/results/postgres.json. Tunables (env): BENCH_PG_SECONDS (default 5), BENCH_PG_ROUNDS (default 3).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPostgres, type ThrowawayPostgres } from '../test/helpers/postgres.ts';
import { api, ORIGIN, widgetBody } from './lib/api.ts';
import { pinned, prepareBinary, SERVER_CORE, startListening, type Started } from './lib/processes.ts';
import { median, printTable, progress, resultsHeader, writeResults, type BenchResults } from './lib/report.ts';
import { CONNECTIONS, wrk, wrkScript, type WrkResult } from './lib/wrk.ts';

const SECONDS = Math.max(1, Number(process.env.BENCH_PG_SECONDS ?? 5));
const ROUNDS = Math.max(1, Number(process.env.BENCH_PG_ROUNDS ?? 3));
/** Quota and per-client limits the bench never reaches: the checks still run. */
const FAR = String(1_000_000_000);
const TARGET_RATIO = 0.5;
const TARGET_P99_MS = 5;

export interface PostgresResults extends BenchResults {
  runs: { sqlite: WrkResult[]; postgres: WrkResult[] };
}

export async function run(): Promise<PostgresResults> {
  if (Bun.which('wrk') === null) throw new Error('wrk is not installed: apt-get install -y wrk');
  const work = mkdtempSync(join(tmpdir(), 'calc-bench-pg-'));
  let pg: ThrowawayPostgres | undefined;
  const servers: Started[] = [];
  try {
    const binary = prepareBinary(work);
    progress(`postgres: executable ${binary.path} (${binary.note})`);
    pg = await startPostgres();
    const serve = (data: string, env: Record<string, string> = {}) =>
      startListening(
        pinned(SERVER_CORE, [
          binary.path,
          'serve',
          '--port',
          '0',
          '--data',
          join(work, data),
          '--quota-free',
          FAR,
          '--rate-widget-per-minute',
          FAR,
          '--rate-widget-per-day',
          FAR,
        ]),
        { env, stderrFile: join(work, `${data}.log`) },
      );
    const sqlite = await serve('sqlite');
    servers.push(sqlite);
    const postgres = await serve('pg', {
      CALC_DATABASE_URL: await pg.createDatabase(),
      CALC_JWT_SECRET: 'bench-jwt-secret-0123456789-0123456789',
      CALC_WEBHOOK_KEY: 'ab'.repeat(32),
    });
    servers.push(postgres);
    const scriptFor = async (server: Started, name: string) => {
      const signup = await api(server.url, 'POST', '/v1/auth/signup', {
        email: 'bench@example.com',
        password: 'bench-password-123',
      });
      await api(server.url, 'POST', '/v1/domains', { domain: ORIGIN }, signup.token);
      return wrkScript(work, name, widgetBody(signup.account.apiKey));
    };
    const targets = {
      sqlite: { url: `${sqlite.url}/v1/widget/load`, script: await scriptFor(sqlite, 'sqlite') },
      postgres: { url: `${postgres.url}/v1/widget/load`, script: await scriptFor(postgres, 'postgres') },
    };
    for (const t of Object.values(targets)) await wrk(t.url, t.script, 1);
    const runs: PostgresResults['runs'] = { sqlite: [], postgres: [] };
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? (['sqlite', 'postgres'] as const) : (['postgres', 'sqlite'] as const);
      for (const name of order) {
        const t = targets[name];
        runs[name].push(await wrk(t.url, t.script, SECONDS));
        progress(`postgres: round ${round + 1}/${ROUNDS} ${name} ${runs[name].at(-1)?.requestsPerSec} req/s`);
      }
    }
    const rps = (name: keyof typeof runs) => median(runs[name].map((r) => r.requestsPerSec));
    const p99 = (name: keyof typeof runs) => median(runs[name].map((r) => r.p99Ms));
    const ratio = rps('postgres') / rps('sqlite');
    const results: PostgresResults = {
      ...resultsHeader('postgres'),
      rows: [
        { metric: 'widget load, SQLite', value: Math.round(rps('sqlite')), unit: 'req/s', target: '', pass: null },
        {
          metric: 'widget load, PostgreSQL',
          value: Math.round(rps('postgres')),
          unit: 'req/s',
          target: '',
          pass: null,
        },
        {
          metric: 'throughput PostgreSQL / SQLite',
          value: Math.round(ratio * 100) / 100,
          unit: '×',
          target: `≥ ${TARGET_RATIO}`,
          pass: ratio >= TARGET_RATIO,
          note: `median of ${ROUNDS} runs of ${SECONDS} s each at ${CONNECTIONS} connections, A B B A`,
        },
        { metric: 'p99, SQLite', value: p99('sqlite'), unit: 'ms', target: '', pass: null },
        {
          metric: 'p99, PostgreSQL',
          value: p99('postgres'),
          unit: 'ms',
          target: `≤ ${TARGET_P99_MS}`,
          pass: p99('postgres') <= TARGET_P99_MS,
        },
      ],
      runs,
    };
    writeResults('postgres', results);
    return results;
  } finally {
    for (const s of servers) await s.stop();
    await pg?.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.main) printTable(await run());
