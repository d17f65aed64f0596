import { afterAll, beforeAll } from 'bun:test';
import { chownSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureCompiled } from './process.ts';
import { tempDir } from './temp-dir.ts';

const PG_ROOT = '/usr/lib/postgresql';

/** The newest installed server's bin directory, or a failure that says what to install. */
function serverBin(): string {
  const versions = existsSync(PG_ROOT)
    ? readdirSync(PG_ROOT)
        .filter((v) => existsSync(join(PG_ROOT, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const newest = versions[0];
  if (!newest)
    throw new Error(
      "PostgreSQL server binaries are missing, so the PostgreSQL tests cannot run. Install Debian's postgresql package (apt-get install postgresql); `npm test` does this when it runs as root.",
    );
  return join(PG_ROOT, newest, 'bin');
}

/** Runs a server binary as the `postgres` user when we are root (initdb refuses root). */
const asPostgres = (cmd: string[]) => (process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--', ...cmd] : cmd);

function runAsPostgres(cmd: string[]): void {
  const done = Bun.spawnSync(asPostgres(cmd), { stdout: 'pipe', stderr: 'pipe' });
  if (done.exitCode !== 0) throw new Error(`${cmd.slice(0, 2).join(' ')} failed: ${done.stderr.toString()}`);
}

/** The same without blocking the test's event loop. */
async function runAsPostgresAsync(cmd: string[]): Promise<void> {
  const proc = Bun.spawn(asPostgres(cmd), { stdout: 'pipe', stderr: 'pipe' });
  const [stderr, exitCode] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  if (exitCode !== 0) throw new Error(`${cmd.slice(0, 2).join(' ')} failed: ${stderr}`);
}

/** Sends `signal` to the postmaster of `data` and to every process it started. */
function signalCluster(data: string, signal: 'SIGSTOP' | 'SIGCONT'): void {
  const postmaster = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children = Bun.spawnSync(['pgrep', '-P', String(postmaster)])
    .stdout.toString()
    .split('\n')
    .filter(Boolean)
    .map(Number);
  // Children first on a stop (none starts a new one meanwhile), the postmaster first on a resume.
  const order = signal === 'SIGSTOP' ? [...children, postmaster] : [postmaster, ...children];
  for (const pid of order) process.kill(pid, signal);
}

function freePort(): number {
  const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}

export interface ThrowawayPostgres {
  /** A new empty database on the cluster: its postgres:// URL. */
  createDatabase(): Promise<string>;
  /** Stops the server (an outage) and starts it again on the same port and data. */
  halt(): void;
  resume(): void;
  /**
   * `pg_ctl restart -m fast`: sessions are ended, the server shuts down and starts again.
   * Runs without blocking, so the test's own clients keep going meanwhile.
   */
  restart(): Promise<void>;
  /** SIGSTOP to the server and all its processes (a hung database), SIGCONT to resume them. */
  freeze(): void;
  thaw(): void;
  stop(): Promise<void>;
}

/** A cluster driven by blocking calls: what a synchronous test helper can use. */
export interface ThrowawayCluster {
  /** A new database (a copy of `template` when given): its postgres:// URL. */
  createDatabase(template?: string): string;
  /** The URL of database `name` on this cluster. */
  url(name: string): string;
  halt(): void;
  resume(): void;
  restart(): Promise<void>;
  freeze(): void;
  thaw(): void;
  stop(): void;
}

/**
 * A real PostgreSQL cluster in a temp dir on a random port (trust auth, 127.0.0.1 only,
 * no fsync: it is thrown away), started and stopped by blocking calls.
 */
export function startCluster(): ThrowawayCluster {
  const bin = serverBin();
  const dir = tempDir('calc-pg-');
  const data = join(dir.path, 'data');
  if (process.getuid?.() === 0) chownSync(dir.path, Number(idOf('-u')), Number(idOf('-g')));
  runAsPostgres([join(bin, 'initdb'), '-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  let port = 0;
  const pgCtl = (action: 'start' | 'restart') => [
    join(bin, 'pg_ctl'),
    '-D',
    data,
    '-l',
    join(dir.path, 'server.log'),
    '-w',
    '-m',
    'fast',
    '-o',
    `-p ${port} -k ${dir.path} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=300`,
    action,
  ];
  const start = () => runAsPostgres(pgCtl('start'));
  for (let attempt = 0; ; attempt++) {
    port = freePort();
    try {
      start();
      break;
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
  const url = (name: string) => `postgres://postgres@127.0.0.1:${port}/${name}`;
  const halt = () => runAsPostgres([join(bin, 'pg_ctl'), '-D', data, '-m', 'immediate', '-w', 'stop']);
  let next = 0;
  return {
    createDatabase(template) {
      const name = `calc_${process.pid}_${++next}`;
      const command = `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`;
      const done = Bun.spawnSync(
        [join(bin, 'psql'), '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-c', command, url('postgres')],
        {
          stdout: 'pipe',
          stderr: 'pipe',
        },
      );
      if (done.exitCode !== 0) throw new Error(`${command} failed: ${done.stderr.toString()}`);
      return url(name);
    },
    url,
    halt,
    resume: start,
    restart: () => runAsPostgresAsync(pgCtl('restart')),
    freeze: () => signalCluster(data, 'SIGSTOP'),
    thaw: () => signalCluster(data, 'SIGCONT'),
    stop() {
      halt();
      dir[Symbol.dispose]();
    },
  };
}

/** The cluster of `startCluster`, started for one test file and stopped after it. */
export async function startPostgres(): Promise<ThrowawayPostgres> {
  const cluster = startCluster();
  return {
    createDatabase: async () => cluster.createDatabase(),
    halt: cluster.halt,
    resume: cluster.resume,
    restart: cluster.restart,
    freeze: cluster.freeze,
    thaw: cluster.thaw,
    stop: async () => cluster.stop(),
  };
}

/**
 * For a test file: a throwaway PostgreSQL started before its tests and stopped after them.
 * The answer gives the cluster, and fails when it did not start.
 */
export function usePostgres(): () => ThrowawayPostgres {
  let pg: ThrowawayPostgres | undefined;
  beforeAll(async () => {
    pg = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await pg?.stop();
  });
  return () => {
    if (!pg) throw new Error('the throwaway PostgreSQL did not start');
    return pg;
  };
}

function idOf(flag: '-u' | '-g'): string {
  return Bun.spawnSync(['id', flag, 'postgres']).stdout.toString().trim();
}

/**
 * For an e2e file: compiles `dist/calc` and starts a throwaway PostgreSQL before its tests,
 * stops the cluster after them. Reading `pg` fails when the cluster did not start.
 */
export function useCompiledWithPostgres(): { readonly calc: string; readonly pg: ThrowawayPostgres } {
  let calc = '';
  beforeAll(async () => {
    calc = await ensureCompiled();
  }, 120_000);
  const pg = usePostgres();
  return {
    get calc() {
      return calc;
    },
    get pg() {
      return pg();
    },
  };
}
