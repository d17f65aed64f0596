import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { ensureCompiled, ROOT, runCommand, startServe } from '../helpers/process.ts';
import { type CliSession, startCliSession } from '../helpers/cli-session.ts';
import { runOnTerminal } from '../helpers/pty.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { startTarget } from '../helpers/webhook-target.ts';

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

/** The inherited environment without calc's own variables, so only what a test sets applies. */
function cleanEnv(extra: Record<string, string>): Record<string, string> {
  const clean: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env))
    if (value !== undefined && !name.startsWith('CALC_') && name !== 'XDG_CONFIG_HOME') clean[name] = value;
  return { ...clean, NO_COLOR: '1', ...extra };
}

/**
 * For helpers that add to the inherited environment instead of replacing it: the CLI's own
 * variables set empty, which it reads as unset, so a developer's login, server or config
 * directory is never used or overwritten.
 */
const NO_CLI_OVERRIDES = { CALC_CONFIG_DIR: '', CALC_API_URL: '', CALC_TOKEN: '', XDG_CONFIG_HOME: '' };

/** True while any process of the group `pgid` is alive. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * SIGTERM to the whole process group (npm, its shell and calc), then waits until none is
 * left; SIGKILL after 15 s. Throws when the group had to be killed.
 */
async function stopGroup(child: ChildProcess): Promise<void> {
  const pgid = child.pid as number;
  if (!groupAlive(pgid)) return;
  process.kill(-pgid, 'SIGTERM');
  for (const deadline = Date.now() + 15_000; Date.now() < deadline; await Bun.sleep(100)) if (!groupAlive(pgid)) return;
  process.kill(-pgid, 'SIGKILL');
  throw new Error('npm start did not stop within 15 s of SIGTERM; killed');
}

describe('README', () => {
  test('the first block: `npm start` builds dist/calc and serves the demo with a demo account', async () => {
    const [line] = block('# calc');
    // `npm install` is what `npm test` already did before this file runs; the rest of the
    // line (`npm start`) runs as written, in bash from the repository root.
    expect(line).toStartWith('npm install && ');
    const command = (line as string).slice('npm install && '.length);
    const data = join(dir.path, 'npm-start-data');
    // Moved: the fixed port (CALC_PORT=0 picks a free one) and ./data (src/config.ts reads both).
    // Detached: npm, its shell and calc form one process group, stopped together below.
    const child = spawn('bash', ['-c', command], {
      cwd: ROOT,
      detached: true,
      env: cleanEnv({ CALC_PORT: '0', CALC_DATA_DIR: data }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      stderr += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      // The build comes first (~30 s on a loaded machine); the listening lines end the wait.
      // Its own deadline, under the file's timeout, so `finally` always stops the group.
      let gone: number | null | undefined;
      void exited.then((code) => {
        gone = code;
      });
      for (const deadline = Date.now() + 180_000; !/^Dashboard: /m.test(stdout); await Bun.sleep(100)) {
        if (gone !== undefined) throw new Error(`${command} exited ${gone} before listening:\n${stdout}\n${stderr}`);
        if (Date.now() > deadline) throw new Error(`${command} did not listen within 180 s:\n${stdout}\n${stderr}`);
      }
      const printed = stdout;
      const url = (/calc listening on (http:\/\/\S+)/.exec(printed) ?? [])[1] as string;
      expect(url, printed).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(existsSync(join(data, 'calc.db')), 'data in the moved data directory').toBe(true);

      // The demo account, printed once: email, password and API key.
      expect(printed).toContain('Demo account created (shown once):');
      const shown = (label: string) => (new RegExp(`^\\s+${label}:\\s+(\\S+)$`, 'm').exec(printed) ?? [])[1] as string;
      const [email, password, apiKey] = [shown('email'), shown('password'), shown('API key')];
      expect(email).toMatch(/@/);
      expect(password?.length).toBeGreaterThan(7);
      expect(apiKey).toMatch(/\S{16,}/);

      // The demo page at / embeds calculators with that account's key.
      const page = await fetch(`${url}/`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain(`${url}/widget.js`);
      expect(html).toContain('data-calc-widget');
      expect(html).toContain(apiKey);
      expect((await fetch(`${url}/widget.js`)).status).toBe(200);

      // /dashboard answers, and the demo credentials sign in.
      const dashboard = await fetch(`${url}/dashboard`);
      expect(dashboard.status).toBe(200);
      expect(dashboard.headers.get('content-type')).toContain('text/html');
      const login = await fetch(`${url}/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });
      expect(login.status).toBe(200);
      expect((await login.json()).account.email).toBe(email);
    } finally {
      await stopGroup(child);
    }
    await exited;
  });

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

  test('"For site owners: the CLI": login on a terminal, domains, embed, webhook, usage and whoami', async () => {
    const lines = block('## For site owners: the CLI');
    await ensureCompiled();
    // `calc` on PATH as "Put calc on your PATH" leaves it, in a home of its own.
    const ownerHome = join(dir.path, 'owner-home');
    mkdirSync(join(ownerHome, '.local', 'bin'), { recursive: true });
    symlinkSync(join(ROOT, 'dist', 'calc'), join(ownerHome, '.local', 'bin', 'calc'));
    // The config directory is the default one in that home (~/.config/calc).
    const ownerEnv = cleanEnv({
      ...NO_CLI_OVERRIDES,
      HOME: ownerHome,
      PATH: `${join(ownerHome, '.local', 'bin')}:${process.env.PATH}`,
    });
    // The shop's API, on a loopback address the server is told to allow (docs/webhooks.md, "Test locally").
    const shopApi = startTarget('127.0.0.2', () => Response.json({ weightKg: 72.5, heightCm: 180 }));
    let session: CliSession | undefined;
    try {
      session = await startCliSession({
        command: [join(ROOT, 'dist', 'calc')],
        serveEnv: { CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.2/32' },
      });
      // An Extra-plan account for the webhook, made by the operator beforehand.
      const { email, password, apiKey } = await session.createAccount('extra', 'owner@shop.example');
      const url = session.url;
      const moved = (line: string) =>
        line
          .replaceAll('https://calc.example.com', url)
          .replaceAll('https://api.shop.example/prefill', shopApi.url('/prefill'));
      const inBash = ['bash', '-c'];
      // What the README says each command does, checked on its standard output.
      type Check = [RegExp, (stdout: string) => void];
      const checks: Check[] = [
        [/^calc domains add /, (out) => expect(out).toContain('Added https://shop.example; it is active.')],
        [/^calc domains(?! add)/, (out) => expect(out).toMatch(/^https:\/\/shop\.example\s+active\s/m)],
        [
          /^calc embed /,
          (out) => {
            expect(out).toContain(`<script src="${url}/widget.js" async></script>`);
            expect(out).toContain(`<div data-calc-widget data-calc-id="bmi" data-api-key="${apiKey}"></div>`);
          },
        ],
        [/^calc config set-webhook /, (out) => expect(out).toContain('Saved the webhook of bmi.')],
        [
          /^calc config test-webhook /,
          (out) => {
            expect(out).toMatch(/^Outcome:\s+ok /m);
            expect(out).toContain('weightKg = 72.5');
            expect(shopApi.requests.at(-1)?.path).toBe('/prefill');
            expect(shopApi.requests.at(-1)?.headers.authorization).toBe('Bearer s3cr3t');
          },
        ],
        [
          /^calc usage /,
          (out) => {
            expect(out).toMatch(/^CALCULATOR\s+LOADS\s+SHARE/m);
            expect(out).toMatch(/^bmi\s+1\s+100\.0%/m);
            expect(out).toMatch(/^TOTAL\s+1\s/m);
          },
        ],
        [/^calc whoami /, (out) => expect(JSON.parse(out).account.email).toBe(email)],
      ];
      const checked: string[] = [];
      for (const raw of lines) {
        const line = moved(raw);
        if (raw.startsWith('calc login ')) {
          // Prompts for email and password: typed on a terminal, as a person does. A prompt
          // that never comes fails within 30 s rather than at the file's timeout.
          const login = await runOnTerminal(
            [...inBash, `cd ${JSON.stringify(ROOT)} && ${line}`],
            [
              { waitFor: 'Email: ', type: `${email}\r` },
              { waitFor: 'Password: ', type: `${password}\r` },
            ],
            ownerEnv,
            30_000,
          );
          expect(login.exitCode, `${line}\n${login.screen}`).toBe(0);
          expect(login.screen).toContain(`Signed in to ${url} as ${email} (Extra plan)`);
          expect(login.screen).not.toContain(password);
          checked.push(raw);
          continue;
        }
        if (raw.startsWith('calc usage ')) {
          // One widget load from the registered page, so the table has a row to show.
          const load = await fetch(`${url}/v1/widget/load`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', origin: 'https://shop.example' },
            body: JSON.stringify({ apiKey, domain: 'https://shop.example', calcId: 'bmi' }),
          });
          expect(load.status).toBe(200);
        }
        const result = await runCommand(inBash, [`cd ${JSON.stringify(ROOT)} && ${line}`], { env: ownerEnv });
        expect(result.exitCode, `${line}\n${result.stdout}\n${result.stderr}`).toBe(0);
        const found = checks.filter(([command]) => command.test(raw));
        expect(found.length, `one check for "${raw}"`).toBe(1);
        (found[0] as Check)[1](result.stdout);
        checked.push(raw);
      }
      // Each command of the block ran and was checked: a line reworded away from its check fails here.
      expect(checked.length).toBe(lines.length);
      expect(checked[0]).toStartWith('calc login ');
      const used = new Set(checked.map((raw) => checks.findIndex(([command]) => command.test(raw))));
      used.delete(-1);
      expect(used.size).toBe(checks.length);
    } finally {
      await session?.[Symbol.asyncDispose]();
      await shopApi.stop();
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

describe('"Configuration"', () => {
  test('names every flag of calc serve, with its variable', async () => {
    const { default: Serve } = await import('../../cli/commands/serve.ts');
    const table = README.slice(README.indexOf('### Configuration'), README.indexOf('### Where data lives'));
    const missing = Object.keys(Serve.flags).filter((name) => !new RegExp(`\`--${name}[\` ]`).test(table));
    expect(missing).toEqual([]);
    // A flag's variable is CALC_ and its name; the table names it (or its family with "…").
    const variables = Object.keys(Serve.flags)
      .filter((name) => name !== 'json' && name !== 'regenerate-secrets' && name !== 'demo')
      .map((name) => `CALC_${name.toUpperCase().replaceAll('-', '_')}`)
      .filter((variable) => !table.includes(variable) && !table.includes(`${variable.replace(/_[A-Z]+$/, '')}_`));
    expect(variables).toEqual([]);
  });
});
