/**
 * `npm test`: the whole suite. Installs Debian chromium (the widget's browser tests),
 * php-cli (the PHP example of docs/webhooks.md), curl (the API reference's curl samples)
 * and postgresql (a throwaway server for the PostgreSQL tests) when missing and this machine allows it (root with apt-get);
 * otherwise those tests fail and say what to install. Builds dist/calc once, first: e2e
 * tests run the real executable, and find it current. Without file filters, runs the API
 * suites a second time on PostgreSQL.
 *
 * Each pass is one `bun test --parallel`: test files run in one worker process per core,
 * each file's results printed together, the slowest files first (by the durations in
 * test/timings.json), a worker that crashes counted as a failed file. At the end, how long
 * each pass took and how much time each group (a folder of test/) spent.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import { CHROMIUM } from './helpers/chromium.ts';

const root = join(import.meta.dir, '..');

function run(cmd: string[], env: Record<string, string> = {}): number {
  const proc = Bun.spawnSync(cmd, { cwd: root, stdout: 'inherit', stderr: 'inherit', env: { ...process.env, ...env } });
  return proc.exitCode ?? 1;
}

/** Installs a Debian package the suite needs when it is missing and this machine allows it. */
function ensurePackage(binary: string, pkg: string, why: string): void {
  if (existsSync(binary)) return;
  const canApt = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
  if (canApt) {
    console.log(`Installing Debian ${pkg} for ${why}…`);
    const env = { DEBIAN_FRONTEND: 'noninteractive' };
    if (run(['apt-get', 'update', '-qq'], env) !== 0 || run(['apt-get', 'install', '-y', '-qq', pkg], env) !== 0) {
      console.error(`Could not install ${pkg}; ${why} will fail. Install it with: apt-get install ${pkg}`);
    }
  } else {
    console.error(
      `${binary} is missing and this user cannot install it: ${why} will fail. Install Debian's ${pkg} package (apt-get install ${pkg}).`,
    );
  }
}

ensurePackage(CHROMIUM, 'chromium', 'the browser tests');
ensurePackage('/usr/bin/php', 'php-cli', 'the PHP example of docs/webhooks.md');
ensurePackage('/usr/bin/curl', 'curl', "the API reference's curl samples");
// postgresql-common's cluster tool: present whenever Debian's postgresql server is.
ensurePackage('/usr/bin/pg_ctlcluster', 'postgresql', 'the PostgreSQL tests');

if (run([process.execPath, join(root, 'cli', 'build.ts')]) !== 0) process.exit(1);

/** Per-file durations (ms) of a whole run, committed: they order and balance the workers. */
const TIMINGS = join(root, 'test', 'timings.json');
const ARTIFACTS = join(root, 'test-artifacts');

interface Pass {
  /** Names its file of measured durations. */
  name: string;
  title: string;
  /** Where its files are (bun's path filters). */
  paths: string[];
  env: Record<string, string>;
  /** The label of a file's group in the summary: its folder of test/. */
  group(file: string): string;
}

const folder = (file: string) => file.split('/').slice(0, 2).join('/');
const filters = process.argv.slice(2);
const passes: Pass[] = [{ name: 'sqlite', title: 'the suite', paths: filters, env: {}, group: folder }];
// The whole suite also runs the API suites on PostgreSQL (test/helpers/test-database.ts);
// each pass prints its own counts, and .ci/run adds them up.
if (filters.length === 0)
  passes.push({
    name: 'postgres',
    title: 'the API suites on PostgreSQL',
    paths: ['test/api'],
    env: { CALC_TEST_DATABASE: 'postgres' },
    group: (file) => `${folder(file)} on PostgreSQL`,
  });

interface Ran {
  pass: Pass;
  status: number;
  seconds: number;
  /** This pass's files and their durations (ms), as bun measured them. */
  files: Record<string, number>;
}

function runPass(pass: Pass): Ran {
  if (pass.env.CALC_TEST_DATABASE) console.log('\nThe API suites again, on PostgreSQL (CALC_TEST_DATABASE=postgres):');
  // bun writes the measured durations, merged with the committed ones, into the first file.
  mkdirSync(ARTIFACTS, { recursive: true });
  const measured = join(ARTIFACTS, `timings-${pass.name}.json`);
  writeFileSync(measured, JSON.stringify({ version: 1, files: {} }));
  // Many tests start real processes, browsers or databases: bun's 5 s default per test is too
  // tight on a loaded 2-core machine. A test that needs less still says so with its own timeout.
  const started = performance.now();
  const status = run(
    [
      process.execPath,
      'test',
      '--timeout',
      '30000',
      `--parallel=${availableParallelism()}`,
      '--timings',
      measured,
      ...(existsSync(TIMINGS) ? ['--timings', TIMINGS] : []),
      '--update-timings',
      ...pass.paths,
    ],
    pass.env,
  );
  const seconds = (performance.now() - started) / 1000;
  const all = JSON.parse(readFileSync(measured, 'utf8')).files as Record<string, number>;
  const ours = new Set(testFiles(pass.paths));
  const files = Object.fromEntries(Object.entries(all).filter(([file]) => ours.has(file)));
  return { pass, status, seconds, files };
}

/** The test files bun finds under `paths` (all of test/ without any), relative to the root. */
function testFiles(paths: string[]): string[] {
  const found = [...new Bun.Glob('test/**/*.test.ts').scanSync({ cwd: root })];
  if (paths.length === 0) return found;
  const wanted = paths.map((path) => relative(root, join(root, path)));
  return found.filter((file) => wanted.some((path) => file === path || file.startsWith(`${path}/`)));
}

const ran = passes.map(runPass);

const minutes = (seconds: number) =>
  `${Math.floor(Math.round(seconds) / 60)}m${String(Math.round(seconds) % 60).padStart(2, '0')}s`;
console.log(
  `\nTime per pass (wall clock, ${availableParallelism()} workers) and per group (its files' time, added up):`,
);
for (const { pass, seconds, files } of ran) {
  console.log(`  ${pass.title}: ${minutes(seconds)}`);
  const groups = new Map<string, { ms: number; count: number }>();
  for (const [file, ms] of Object.entries(files)) {
    const group = groups.get(pass.group(file)) ?? { ms: 0, count: 0 };
    groups.set(pass.group(file), { ms: group.ms + ms, count: group.count + 1 });
  }
  for (const [group, { ms, count }] of [...groups].sort((a, b) => b[1].ms - a[1].ms))
    console.log(`    ${group.padEnd(28)} ${minutes(ms / 1000).padStart(7)}  (${count} files)`);
}
console.log(
  `Measured durations: ${relative(root, ARTIFACTS)}/timings-*.json (copy into test/timings.json to rebalance).`,
);
process.exit(ran.find((pass) => pass.status !== 0)?.status ?? 0);
