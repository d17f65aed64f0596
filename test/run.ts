/**
 * `npm test`: the whole suite. Installs Debian chromium for the widget's browser tests
 * when it is missing and this machine allows it (root with apt-get); otherwise those
 * tests fail and say what to install. Builds dist/calc first: e2e tests run the real
 * executable.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dir, '..');
const CHROMIUM = '/usr/bin/chromium';

function run(cmd: string[], env: Record<string, string> = {}): number {
  const proc = Bun.spawnSync(cmd, { cwd: root, stdout: 'inherit', stderr: 'inherit', env: { ...process.env, ...env } });
  return proc.exitCode ?? 1;
}

if (!existsSync(CHROMIUM)) {
  const canApt = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
  if (canApt) {
    console.log('Installing Debian chromium for the browser tests…');
    const env = { DEBIAN_FRONTEND: 'noninteractive' };
    if (
      run(['apt-get', 'update', '-qq'], env) !== 0 ||
      run(['apt-get', 'install', '-y', '-qq', 'chromium'], env) !== 0
    ) {
      console.error(
        'Could not install chromium; the browser tests will fail. Install it with: apt-get install chromium',
      );
    }
  } else {
    console.error(
      `${CHROMIUM} is missing and this user cannot install it: the browser tests will fail. Install Debian's chromium package (apt-get install chromium).`,
    );
  }
}

if (run([process.execPath, join(root, 'cli', 'build.ts')]) !== 0) process.exit(1);
process.exit(run([process.execPath, 'test', ...process.argv.slice(2)]));
