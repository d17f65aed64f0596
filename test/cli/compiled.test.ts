import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { commands } from '../../cli/commands.ts';
import { jsonOf, startCliSession, type CliSession } from '../helpers/cli-session.ts';
import { ensureCompiled, runCommand } from '../helpers/process.ts';
import { runOnTerminal } from '../helpers/pty.ts';
import { closedPort, startTarget, type TargetServer } from '../helpers/webhook-target.ts';
import { HOOK_TIMEOUT_MS } from '../helpers/timeouts.ts';

// Every test starts processes; a loaded machine must not turn that into a failure.
setDefaultTimeout(30_000);

/**
 * The owner commands in the compiled executable (dist/calc, rebuilt when a source is
 * newer), against the compiled server: oclif's command map, raw-mode prompts and the
 * credentials file must all work without a source tree.
 */
const SECRET = 'compiled-s3cr3t-never-printed';

let calc: string;
let session: CliSession;
let target: TargetServer;
let owner: Awaited<ReturnType<CliSession['signedIn']>>;

beforeAll(async () => {
  calc = await ensureCompiled();
  target = startTarget('127.0.0.2', () => Response.json({ weightKg: 72.5, heightCm: 181, shoeSize: 44 }));
  session = await startCliSession({ command: [calc], serveEnv: { CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.2/32' } });
  owner = await session.signedIn('extra');
}, 120_000);
afterAll(async () => {
  await session?.[Symbol.asyncDispose]();
  await target?.stop();
}, HOOK_TIMEOUT_MS);

const asOwner = (args: string[], stdin?: string) => session.calc(args, { env: owner.env, stdin });

describe('compiled: help', () => {
  const topics = ['domains', 'config', 'keys', 'admin', 'admin accounts'];
  for (const topic of topics) {
    test(`calc ${topic} --help lists its commands`, async () => {
      const result = await runCommand([calc], [...topic.split(' '), '--help']);
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toContain('COMMANDS');
      expect(result.stdout).toContain(`${topic} `);
    });
  }

  test('every command answers --help with a description and examples', async () => {
    // Hidden commands (the completion plugin's internal `autocomplete:create`) are not documented.
    const ids = Object.entries(commands)
      .filter(([id, command]) => id !== 'help' && !command.hidden)
      .map(([id]) => id);
    const results = await Promise.all(ids.map((id) => runCommand([calc], [...id.split(':'), '--help'])));
    results.forEach((result, i) => {
      expect({ id: ids[i], exitCode: result.exitCode }).toEqual({ id: ids[i], exitCode: 0 });
      expect(result.stdout).toContain('DESCRIPTION');
      expect(result.stdout).toContain('EXAMPLES');
    });
  });

  test('calc --help shows the owner topics and commands', async () => {
    const result = await runCommand([calc], ['--help']);
    for (const name of ['domains', 'config', 'keys', 'login', 'whoami', 'embed', 'calculators'])
      expect(result.stdout).toContain(`  ${name} `);
  });
});

describe('compiled: sign-in', () => {
  test('login --password-stdin stores credentials 0600 in a 0700 directory', async () => {
    const file = join(owner.configDir, 'credentials.json');
    expect(statSync(owner.configDir).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const whoami = await asOwner(['whoami', '--json']);
    expect(whoami.exitCode).toBe(0);
    expect(jsonOf<{ account: { email: string; plan: string } }>(whoami.stdout).account).toMatchObject({
      email: owner.email,
      plan: 'extra',
    });
  });

  test('the password prompt on a terminal never shows the password', async () => {
    const account = await session.createAccount();
    const { screen, exitCode } = await runOnTerminal(
      [calc, 'login', '--email', account.email],
      [{ waitFor: 'Password: ', type: `${account.password}\r` }],
      {
        CALC_CONFIG_DIR: join(session.dataDir, '..', 'compiled-pty'),
        CALC_API_URL: session.url,
      },
    );
    expect(exitCode).toBe(0);
    expect(screen).toContain(`Signed in to ${session.url} as ${account.email}`);
    expect(screen).not.toContain(account.password);
  });

  test('not signed in: exit 4; unknown flag: exit 2; server down: exit 1', async () => {
    expect((await session.calc(['domains'])).exitCode).toBe(4);
    expect((await asOwner(['domains', '--nope'])).exitCode).toBe(2);
    const down = await asOwner(['domains', '--api-url', 'http://127.0.0.1:1']);
    expect(down.exitCode).toBe(4); // the stored login belongs to another server: never sent
    const downWithToken = await session.calc([
      'calculators',
      '--api-url',
      `http://127.0.0.1:${await closedPort('127.0.0.1')}`,
    ]);
    expect(downWithToken.exitCode).toBe(1);
    expect(downWithToken.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('compiled: domains', () => {
  test('add, approve a pending request, remove', async () => {
    const added = await asOwner(['domains', 'add', 'https://shop.example']);
    expect(added.exitCode).toBe(0);
    expect(added.stdout).toBe('Added https://shop.example; it is active.\n');

    const asked = await fetch(`${session.url}/v1/widget/register-domain`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: owner.apiKey, domain: 'https://blog.shop.example' }),
    });
    expect(asked.status).toBe(202);
    expect((await asOwner(['domains'])).stdout).toMatch(/https:\/\/blog\.shop\.example\s+PENDING approval/);

    const approved = await asOwner(['domains', 'approve', 'https://blog.shop.example', '--json']);
    expect(approved.exitCode).toBe(0);
    expect(jsonOf(approved.stdout)).toMatchObject({
      domain: { domain: 'https://blog.shop.example', status: 'active' },
    });
    expect((await asOwner(['domains', 'approve', 'https://blog.shop.example'])).exitCode).toBe(1);

    const removed = await asOwner(['domains', 'remove', 'https://shop.example', '--yes']);
    expect(removed.exitCode).toBe(0);
    const list = jsonOf<{ domains: { domain: string }[] }>((await asOwner(['domains', '--json'])).stdout);
    expect(list.domains.map((d) => d.domain)).toEqual(['https://blog.shop.example']);
  });
});

describe('compiled: webhook config', () => {
  test('set-webhook with two headers, get redacts them, test-webhook shows what it would pre-fill', async () => {
    const set = await asOwner(
      ['config', 'set-webhook', 'bmi', '--url', target.url('/prefill'), '--header', 'X-Shop: 7', '--header-stdin'],
      `Authorization: Bearer ${SECRET}\n`,
    );
    expect(set.exitCode).toBe(0);

    const get = await asOwner(['config', 'get', 'bmi']);
    const getJson = await asOwner(['config', 'get', 'bmi', '--json']);
    for (const result of [set, get, getJson]) {
      expect(result.stdout).not.toContain(SECRET);
      expect(result.stderr).not.toContain(SECRET);
    }
    expect(get.stdout).toMatch(/Headers:\s+X-Shop: <redacted>, Authorization: <redacted>/);
    expect(jsonOf(getJson.stdout)).toMatchObject({
      config: { webhook: { headers: { 'X-Shop': '<redacted>', Authorization: '<redacted>' } } },
    });

    const tested = await asOwner(['config', 'test-webhook', 'bmi']);
    expect(tested.exitCode).toBe(0);
    expect(tested.stdout).toMatch(/Outcome:\s+ok/);
    expect(tested.stdout).toMatch(/HTTP status:\s+200/);
    expect(tested.stdout).toMatch(/Pre-fill:\s+weightKg = 72\.5, heightCm = 181/);
    expect(tested.stdout).toMatch(/Ignored keys:\s+shoeSize/);
    expect(tested.stdout).not.toContain(SECRET);
    expect(target.requests.at(-1)?.headers).toMatchObject({ authorization: `Bearer ${SECRET}`, 'x-shop': '7' });
  });
});
