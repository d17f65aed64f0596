/**
 * `npm test`: the whole suite. Installs Debian chromium (the widget's browser tests),
 * php-cli (the PHP example of docs/webhooks.md), curl (the API reference's curl samples)
 * and postgresql (a throwaway server for the PostgreSQL tests) when missing and this machine allows it (root with apt-get);
 * otherwise those tests fail and say what to install. Builds dist/calc first: e2e tests
 * run the real executable. Without file filters, runs the API suites a second time on
 * PostgreSQL.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
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
// Many tests start real processes, browsers or databases: bun's 5 s default per test is too
// tight on a loaded 2-core machine. A test that needs less still says so with its own timeout.
const bunTest = [process.execPath, 'test', '--timeout', '30000'];
const filters = process.argv.slice(2);
const status = run([...bunTest, ...filters]);
// The whole suite also runs the API suites on PostgreSQL (test/helpers/test-database.ts);
// each pass prints its own counts, and .ci/run adds them up.
if (filters.length > 0) process.exit(status);
console.log('\nThe API suites again, on PostgreSQL (CALC_TEST_DATABASE=postgres):');
const onPostgres = run([...bunTest, 'test/api'], { CALC_TEST_DATABASE: 'postgres' });
process.exit(status !== 0 ? status : onPostgres);
