import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureCompiled, ROOT, runCommand, startServe } from '../helpers/process.ts';
import { tempDir } from '../helpers/temp-dir.ts';

// Builds the executable when the sources are newer, then runs it several times.
setDefaultTimeout(300_000);

/**
 * The README's shell blocks for the first hour, run as written: each line in bash from
 * the repository root, with only machine paths moved into a temp directory and the
 * server's fixed port replaced by a free one. `npm run build` is what ensureCompiled
 * does (the same compileExecutable, skipped when dist/calc is already current).
 */
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const dir = tempDir('calc-readme-');
afterAll(() => dir[Symbol.dispose]());

/** The first ```sh block after a heading. */
function block(heading: string): string[] {
  const at = README.indexOf(heading);
  expect(at, `README has "${heading}"`).toBeGreaterThan(-1);
  const start = README.indexOf('```sh\n', at) + '```sh\n'.length;
  return README.slice(start, README.indexOf('\n```', start))
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '');
}

const home = join(dir.path, 'home');
const env = (extra: Record<string, string> = {}) => ({
  HOME: home,
  PATH: `${join(home, '.local', 'bin')}:${process.env.PATH}`,
  NO_COLOR: '1',
  ...extra,
});
const bash = (line: string, extra: Record<string, string> = {}) =>
  runCommand(['bash', '-c', `cd ${JSON.stringify(ROOT)} && ${line}`], [], { env: env(extra) });

describe('README', () => {
  test('"Put calc on your PATH": after these lines `calc` runs by name', async () => {
    const lines = block('### Put `calc` on your PATH');
    expect(lines[0]).toBe('npm run build');
    await ensureCompiled();
    mkdirSync(home, { recursive: true });
    for (const line of lines.slice(1)) {
      const result = await bash(line);
      expect(result.stderr, line).toBe('');
      expect(result.exitCode, line).toBe(0);
      if (line === 'calc --version') expect(result.stdout).toMatch(/^calc\/\d+\.\d+\.\d+ /);
    }
  });

  test('"For operators": serve, create, set-plan, list and backup work on the one data directory', async () => {
    const lines = block('## For operators');
    expect(lines[0]).toBe('npm run build');
    await ensureCompiled();
    const data = join(dir.path, 'var-lib-calc');
    const backups = join(dir.path, 'var-backups');
    mkdirSync(backups, { recursive: true });
    const moved = (line: string) => line.replaceAll('/var/lib/calc', data).replaceAll('/var/backups', backups);
    const exported: Record<string, string> = {};
    let server: Awaited<ReturnType<typeof startServe>> | undefined;
    try {
      for (const raw of lines.slice(1)) {
        const line = moved(raw);
        const exportMatch = /^export (\w+)=(\S+)$/.exec(line);
        if (exportMatch) {
          exported[exportMatch[1] as string] = exportMatch[2] as string;
        } else if (line.startsWith('./dist/calc serve ')) {
          // As written, less the fixed port and the public interface.
          const args = line
            .replace('./dist/calc serve ', '')
            .replace('--host 0.0.0.0', '--host 127.0.0.1')
            .replace(/--port \d+ ?/, '')
            .split(/\s+/);
          server = await startServe([join(ROOT, 'dist', 'calc')], args, env(exported));
          expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
          // The API reference is inside the executable: no file beside it, no CDN.
          const redoc = await fetch(`${server.url}/docs/redoc.standalone.js`);
          expect(redoc.status).toBe(200);
          expect((await redoc.text()).length).toBeGreaterThan(500_000);
        } else {
          const result = await bash(line, exported);
          expect(result.exitCode, `${line}\n${result.stderr}`).toBe(0);
          if (line.includes('accounts list')) expect(result.stdout).toContain('owner@shop.example');
        }
      }
    } finally {
      await server?.stop();
    }
    const backup = await bash(`ls ${backups}`);
    expect(backup.stdout).toMatch(/^calc-\d{4}-\d{2}-\d{2}\.db$/m);
  });

  test('the lost demo password: reset on the data directory, and the new one signs in', async () => {
    const [line] = block('Lost the demo password?');
    const data = join(dir.path, 'demo-data');
    const seeded = await startServe([join(ROOT, 'dist', 'calc')], ['--demo', '--data', data], env());
    await seeded.stop();
    const result = await bash((line as string).replace('--data ./data', `--data ${data}`).concat(' --json'));
    expect(result.exitCode, result.stderr).toBe(0);
    const { password } = JSON.parse(result.stdout);
    const server = await startServe([join(ROOT, 'dist', 'calc')], ['--data', data], env());
    try {
      const login = await fetch(`${server.url}/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'demo@calc.example', password }),
      });
      expect(login.status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});
