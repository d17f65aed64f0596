/**
 * Widget loads on PostgreSQL against SQLite mode, in one run: the same executable serves
 * one account from a SQLite data directory and, at the same time, another from a
 * throwaway PostgreSQL on this machine. wrk (32 connections) loads each in turn, the
 * order alternating per pair, after waiting for a quiet machine; each pair gives one
 * throughput ratio; the medians are taken over the least disturbed half of the pairs (by
 * the CPU other processes used meanwhile). Reported: throughput of each, the median ratio (target ≥ 0.5), p99 on
 * PostgreSQL (target ≤ 5 ms), and where the time goes: calc's CPU per load (user and
 * kernel) and the PostgreSQL backends' CPU per load. The PostgreSQL server is not pinned:
 * its CPU competes with calc's, as on a one-machine install.
 *
 * Then the sweep: sizes of the widget's pool (`--database-widget-pool`) × statement
 * preparation on or off (`?prepare=false` in the URL), and the default over the Unix
 * socket (`?path=`), each a fresh server paired with SQLite runs the same way.
 *
 * Runs on its own (`bun bench/postgres.ts`) or from bench/run.ts. Writes
 * bench/results/postgres.json. Tunables (env): BENCH_PG_SECONDS (default 5),
 * BENCH_PG_ROUNDS (default 8), BENCH_PG_SWEEP=0 skips the sweep, BENCH_PG_SWEEP_SECONDS
 * (default 3), BENCH_PG_SWEEP_ROUNDS (default 3, the least disturbed two thirds kept).
 */
import { SQL } from 'bun';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_WIDGET_POOL } from '../src/config.ts';
import { startPostgres, type ThrowawayPostgres } from '../test/helpers/postgres.ts';
import { api, ORIGIN, widgetBody } from './lib/api.ts';
import { cpuSecondsOf, cpuSplitOf, waitForQuiet, withChildren } from './lib/proc-stats.ts';
import {
  inWorkDir,
  pinned,
  prepareBinary,
  SERVER_CORE,
  serveCommand,
  startListening,
  unreachedLimits,
} from './lib/processes.ts';
import type { Started } from './lib/processes.ts';
import {
  median,
  printTable,
  progress,
  resultsHeader,
  writeResults,
  type BenchResults,
  type Row,
} from './lib/report.ts';
import { leastDisturbed, MAX_INTERFERENCE, round1, round2 } from './lib/sampling.ts';
import { CONNECTIONS, wrk, wrkScript, type WrkResult } from './lib/wrk.ts';

const env = process.env;
const SECONDS = Math.max(1, Number(env.BENCH_PG_SECONDS ?? 5));
const ROUNDS = Math.max(1, Number(env.BENCH_PG_ROUNDS ?? 8));
/** The medians are taken over this many of the least disturbed pairs. */
const KEEP = Math.ceil(ROUNDS / 2);
const SWEEP = env.BENCH_PG_SWEEP !== '0';
const SWEEP_SECONDS = Math.max(1, Number(env.BENCH_PG_SWEEP_SECONDS ?? 3));
const SWEEP_ROUNDS = Math.max(1, Number(env.BENCH_PG_SWEEP_ROUNDS ?? 3));
const SWEEP_KEEP = Math.ceil((SWEEP_ROUNDS * 2) / 3);
const POOLS = [1, 2, 4, 8, 16, 32];
/** Before each pair: wait at most this long for a quiet machine. */
const QUIET_WAIT_MS = 3000;
/** Quota and per-client limits the bench never reaches: the checks still run. */
const FAR = String(1_000_000_000);
const TARGET_RATIO = 0.5;
const TARGET_P99_MS = 5;

interface Setting {
  /** `--database-widget-pool`: the connections the widget's lookups run on. */
  widgetPool: number;
  prepare: boolean;
  /** Connect over the cluster's Unix socket instead of TCP on 127.0.0.1. */
  socket: boolean;
}

/** One wrk run and the CPU it cost, per answered load. */
interface Measured extends WrkResult {
  calcUserUs: number;
  calcKernelUs: number;
  /** CPU of every PostgreSQL process of the cluster (backends, background workers). */
  postgresUs: number;
}

interface Pair {
  sqlite: Measured;
  postgres: Measured;
  ratio: number;
  /** Cores other processes used during the pair's more disturbed run. */
  interference: number;
}

interface Summary {
  setting: Setting;
  ratio: number;
  postgresRps: number;
  p99Ms: number;
  calcUs: number;
  postgresUs: number;
  /** Indexes of the pairs the medians are taken over: the least disturbed ones. */
  kept: number[];
  pairs: Pair[];
}

export interface PostgresResults extends BenchResults {
  headline: Summary & { sqliteRps: number; sqliteP99Ms: number; sqliteCalcUs: number };
  sweep: Summary[];
}

const describe = (s: Setting) =>
  `widget pool ${s.widgetPool}, ${s.prepare ? 'prepared' : 'unprepared'}${s.socket ? ', Unix socket' : ''}`;

function summarise(setting: Setting, pairs: Pair[], keep: number): Summary {
  const kept = leastDisturbed(pairs, keep);
  const of = (pick: (p: Pair) => number) => median(kept.map((i) => pick(pairs[i] as Pair)));
  return {
    setting,
    ratio: round2(of((p) => p.ratio)),
    postgresRps: Math.round(of((p) => p.postgres.requestsPerSec)),
    p99Ms: round2(of((p) => p.postgres.p99Ms)),
    calcUs: round1(of((p) => p.postgres.calcUserUs + p.postgres.calcKernelUs)),
    postgresUs: round1(of((p) => p.postgres.postgresUs)),
    kept,
    pairs,
  };
}

/** The cluster's postmaster: its children are the backends whose CPU a load costs. */
async function postmasterOf(url: string): Promise<number> {
  const admin = new SQL({ url, max: 1 });
  try {
    const [row] = await admin`SHOW data_directory`;
    return Number(readFileSync(join(row.data_directory, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } finally {
    await admin.close();
  }
}

async function socketDirOf(url: string): Promise<string> {
  const admin = new SQL({ url, max: 1 });
  try {
    const [row] = await admin`SHOW unix_socket_directories`;
    return String(row.unix_socket_directories).split(',')[0]!.trim();
  } finally {
    await admin.close();
  }
}

export function run(): Promise<PostgresResults> {
  if (Bun.which('wrk') === null) throw new Error('wrk is not installed: apt-get install -y wrk');
  return inWorkDir('calc-bench-pg-', async (work) => {
    let pg: ThrowawayPostgres | undefined;
    const servers = new Set<Started>();
    try {
      const binary = prepareBinary(work);
      progress(`postgres: executable ${binary.path} (${binary.note})`);
      pg = await startPostgres();
      const databaseUrl = await pg.createDatabase();
      const postmaster = await postmasterOf(databaseUrl);
      const socketDir = await socketDirOf(databaseUrl);
      let started = 0;
      const serve = async (flags: string[], extraEnv: Record<string, string> = {}) => {
        const data = join(work, `data-${++started}`);
        const server = await startListening(
          pinned(SERVER_CORE, serveCommand(binary.path, data, [...unreachedLimits('free', FAR), ...flags])),
          { env: extraEnv, stderrFile: `${data}.log` },
        );
        servers.add(server);
        return server;
      };
      const servePostgres = (setting: Setting) => {
        const params = [
          ...(setting.prepare ? [] : ['prepare=false']),
          ...(setting.socket ? [`path=${encodeURIComponent(socketDir)}`] : []),
        ];
        return serve(['--database-widget-pool', String(setting.widgetPool)], {
          CALC_DATABASE_URL: params.length === 0 ? databaseUrl : `${databaseUrl}?${params.join('&')}`,
          CALC_JWT_SECRET: 'bench-jwt-secret-0123456789-0123456789',
          CALC_WEBHOOK_KEY: 'ab'.repeat(32),
        });
      };
      const stop = async (server: Started) => {
        servers.delete(server);
        await server.stop();
      };
      const scriptFor = async (server: Started, name: string) => {
        const signup = await api(server.url, 'POST', '/v1/auth/signup', {
          email: `${name}@example.com`,
          password: 'bench-password-123',
        });
        await api(server.url, 'POST', '/v1/domains', { domain: ORIGIN }, signup.token);
        return wrkScript(work, name, widgetBody(signup.account.apiKey));
      };

      const measure = async (server: Started, script: string, seconds: number): Promise<Measured> => {
        const postgresPids = withChildren(postmaster);
        const postgresCpu = () => postgresPids.reduce((sum, pid) => sum + cpuSecondsOf(pid), 0);
        const pg0 = postgresCpu();
        const calc0 = cpuSplitOf(server.proc.pid);
        const result = await wrk(`${server.url}/v1/widget/load`, script, seconds, {
          serverPid: server.proc.pid,
          helperPids: postgresPids,
          countIrq: true,
        });
        const calc1 = cpuSplitOf(server.proc.pid);
        const perLoad = (s: number) => round1((s * 1e6) / result.requests);
        return {
          ...result,
          calcUserUs: perLoad(calc1.user - calc0.user),
          calcKernelUs: perLoad(calc1.system - calc0.system),
          postgresUs: perLoad(postgresCpu() - pg0),
        };
      };
      const sqlite = await serve([]);
      const sqliteScript = await scriptFor(sqlite, 'sqlite');
      const pairs = async (server: Started, script: string, rounds: number, seconds: number, label: string) => {
        // First contact: the pool opens its connections, the JIT warms up.
        await wrk(`${server.url}/v1/widget/load`, script, 1);
        await wrk(`${sqlite.url}/v1/widget/load`, sqliteScript, 1);
        const out: Pair[] = [];
        for (let round = 0; round < rounds; round++) {
          await waitForQuiet(QUIET_WAIT_MS);
          let s: Measured;
          let p: Measured;
          if (round % 2 === 0) {
            s = await measure(sqlite, sqliteScript, seconds);
            p = await measure(server, script, seconds);
          } else {
            p = await measure(server, script, seconds);
            s = await measure(sqlite, sqliteScript, seconds);
          }
          out.push({
            sqlite: s,
            postgres: p,
            ratio: p.requestsPerSec / s.requestsPerSec,
            interference: Math.max(s.interferenceCores ?? 0, p.interferenceCores ?? 0),
          });
          progress(
            `postgres: ${label} ${round + 1}/${rounds}: SQLite ${Math.round(s.requestsPerSec)} req/s, PostgreSQL ${Math.round(p.requestsPerSec)} req/s (${round2(p.requestsPerSec / s.requestsPerSec)}×), p99 ${s.p99Ms} / ${p.p99Ms} ms, others used ${out.at(-1)?.interference} cores`,
          );
        }
        return out;
      };

      const defaults: Setting = { widgetPool: DEFAULT_WIDGET_POOL, prepare: true, socket: false };
      const main = await servePostgres(defaults);
      const postgresScript = await scriptFor(main, 'postgres');
      const headlinePairs = await pairs(main, postgresScript, ROUNDS, SECONDS, 'default');
      await stop(main);
      const summary = summarise(defaults, headlinePairs, KEEP);
      const keptPairs = summary.kept.map((i) => headlinePairs[i] as Pair);
      const headline = {
        ...summary,
        sqliteRps: Math.round(median(keptPairs.map((p) => p.sqlite.requestsPerSec))),
        sqliteP99Ms: round2(median(keptPairs.map((p) => p.sqlite.p99Ms))),
        sqliteCalcUs: round1(median(keptPairs.map((p) => p.sqlite.calcUserUs + p.sqlite.calcKernelUs))),
      };

      const sweep: Summary[] = [];
      if (SWEEP) {
        const settings: Setting[] = [
          ...POOLS.flatMap((widgetPool) => [
            { widgetPool, prepare: true, socket: false },
            { widgetPool, prepare: false, socket: false },
          ]),
          { ...defaults, socket: true },
        ];
        for (const setting of settings) {
          // Every server on the one database: the account made above serves them all.
          const server = await servePostgres(setting);
          sweep.push(
            summarise(
              setting,
              await pairs(server, postgresScript, SWEEP_ROUNDS, SWEEP_SECONDS, describe(setting)),
              SWEEP_KEEP,
            ),
          );
          await stop(server);
        }
      }

      const noisy = keptPairs.filter((p) => p.interference > MAX_INTERFERENCE).length;
      const method = `median of the ${KEEP} least disturbed of ${ROUNDS} pairs of ${SECONDS} s runs at ${CONNECTIONS} connections, order alternating; ${noisy} of them with other processes above ${MAX_INTERFERENCE} cores`;
      const rows: Row[] = [
        { metric: 'widget load, SQLite', value: headline.sqliteRps, unit: 'req/s', target: '', pass: null },
        {
          metric: `widget load, PostgreSQL (${describe(defaults)})`,
          value: headline.postgresRps,
          unit: 'req/s',
          target: '',
          pass: null,
        },
        {
          metric: 'throughput PostgreSQL / SQLite',
          value: headline.ratio,
          unit: '×',
          target: `≥ ${TARGET_RATIO}`,
          pass: headline.ratio >= TARGET_RATIO,
          note: method,
        },
        { metric: 'p99, SQLite', value: headline.sqliteP99Ms, unit: 'ms', target: '', pass: null },
        {
          metric: 'p99, PostgreSQL',
          value: headline.p99Ms,
          unit: 'ms',
          target: `≤ ${TARGET_P99_MS}`,
          pass: headline.p99Ms <= TARGET_P99_MS,
        },
        { metric: 'calc CPU per load, SQLite', value: headline.sqliteCalcUs, unit: 'µs', target: '', pass: null },
        { metric: 'calc CPU per load, PostgreSQL', value: headline.calcUs, unit: 'µs', target: '', pass: null },
        { metric: 'PostgreSQL CPU per load', value: headline.postgresUs, unit: 'µs', target: '', pass: null },
        ...sweep.map(
          (s): Row => ({
            metric: `sweep: ${describe(s.setting)}`,
            value: s.ratio,
            unit: '×',
            target: '',
            pass: null,
            note: `${s.postgresRps} req/s, p99 ${s.p99Ms} ms, calc ${s.calcUs} µs/load, PostgreSQL ${s.postgresUs} µs/load (median of the ${SWEEP_KEEP} least disturbed of ${SWEEP_ROUNDS} pairs of ${SWEEP_SECONDS} s)`,
          }),
        ),
      ];
      const results: PostgresResults = { ...resultsHeader('postgres'), rows, headline, sweep };
      writeResults('postgres', results);
      return results;
    } finally {
      for (const server of servers) await server.stop();
      await pg?.stop();
    }
  });
}

if (import.meta.main) printTable(await run());
