import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonOf, startCliSession, TEST_PASSWORD, type CliSession } from '../helpers/cli-session.ts';
import { closedPort } from '../helpers/webhook-target.ts';

// Every test starts processes and hashes passwords; a loaded machine must not fail them.
setDefaultTimeout(60_000);

const NEW_PASSWORD = 'a brand new password';

let session: CliSession;
beforeAll(async () => {
  session = await startCliSession();
}, 60_000);
afterAll(() => session[Symbol.asyncDispose]());

const tokenIn = (configDir: string): string =>
  JSON.parse(readFileSync(join(configDir, 'credentials.json'), 'utf8')).token;

/** GET /v1/account with a token, straight over HTTP. */
const statusWith = async (token: string) =>
  (await fetch(`${session.url}/v1/account`, { headers: { authorization: `Bearer ${token}` } })).status;

/** A second session of the same account, as another machine would hold it. */
async function secondToken(email: string, password = TEST_PASSWORD): Promise<string> {
  const res = await fetch(`${session.url}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return ((await res.json()) as { token: string }).token;
}

describe('calc password', () => {
  test('--password-stdin: the stored token is replaced and works; every other token stops', async () => {
    const owner = await session.signedIn();
    const before = tokenIn(owner.configDir);
    const other = await secondToken(owner.email);
    const result = await session.calc(['password', '--password-stdin', '--json'], {
      stdin: `${TEST_PASSWORD}\n${NEW_PASSWORD}\n`,
      env: owner.env,
    });
    expect(result.exitCode).toBe(0);
    const body = jsonOf<{ token: string; expiresAt: string }>(result.stdout);
    expect(Object.keys(body).sort()).toEqual(['expiresAt', 'token']);
    expect(tokenIn(owner.configDir)).toBe(body.token);
    expect(await statusWith(body.token)).toBe(200);
    expect(await statusWith(before)).toBe(401);
    expect(await statusWith(other)).toBe(401);
    expect((await session.calc(['whoami'], { env: owner.env })).exitCode).toBe(0);
    expect(result.stdout + result.stderr).not.toContain(NEW_PASSWORD);
  });

  test('a wrong current password exits 1 with the server message; nothing changes', async () => {
    const owner = await session.signedIn();
    const result = await session.calc(['password', '--password-stdin'], {
      stdin: `not the password\n${NEW_PASSWORD}\n`,
      env: owner.env,
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('The current password is wrong.');
    expect(await statusWith(tokenIn(owner.configDir))).toBe(200);
  });

  test('one line on stdin is refused before anything is sent', async () => {
    const owner = await session.signedIn();
    const result = await session.calc(['password', '--password-stdin'], {
      stdin: `${TEST_PASSWORD}\n`,
      env: owner.env,
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('needs two lines');
  });
});

describe('calc logout', () => {
  test('calls the server (every token of the account ends), then forgets the stored one', async () => {
    const owner = await session.signedIn();
    const stored = tokenIn(owner.configDir);
    const other = await secondToken(owner.email);
    const result = await session.calc(['logout', '--json'], { env: owner.env });
    expect(result.exitCode).toBe(0);
    expect(jsonOf(result.stdout)).toEqual({ ok: true });
    expect(existsSync(join(owner.configDir, 'credentials.json'))).toBe(false);
    expect(await statusWith(stored)).toBe(401);
    expect(await statusWith(other)).toBe(401);
  });

  test('--local only forgets: other tokens keep working', async () => {
    const owner = await session.signedIn();
    const stored = tokenIn(owner.configDir);
    const result = await session.calc(['logout', '--local'], { env: owner.env });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('Signed out');
    expect(existsSync(join(owner.configDir, 'credentials.json'))).toBe(false);
    expect(await statusWith(stored)).toBe(200);
  });

  test('a server that cannot be reached: exit 1 and the token is kept (it would still work)', async () => {
    const configDir = join(session.dataDir, '..', 'config-unreachable');
    mkdirSync(configDir, { recursive: true });
    const login = {
      apiUrl: `http://127.0.0.1:${await closedPort('127.0.0.1')}`,
      token: 'a.stored.token',
      email: 'owner@shop.example',
      expiresAt: new Date(Date.now() + 3600_000).toISOString(),
    };
    writeFileSync(join(configDir, 'credentials.json'), JSON.stringify(login), { mode: 0o600 });
    const result = await session.calc(['logout'], { env: { CALC_CONFIG_DIR: configDir, CALC_API_URL: '' } });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('Cannot connect');
    expect(existsSync(join(configDir, 'credentials.json'))).toBe(true);
  });
});

describe('calc account delete', () => {
  test('--yes --password-stdin deletes the account: its key and tokens stop, the stored token is forgotten', async () => {
    const owner = await session.signedIn();
    const result = await session.calc(['account', 'delete', '--yes', '--password-stdin', '--json'], {
      stdin: `${TEST_PASSWORD}\n`,
      env: owner.env,
    });
    expect(result.exitCode).toBe(0);
    expect(jsonOf(result.stdout)).toEqual({ ok: true });
    expect(existsSync(join(owner.configDir, 'credentials.json'))).toBe(false);
    const verify = await fetch(`${session.url}/v1/widget/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: owner.apiKey, domain: 'https://shop.example', calcId: 'bmi' }),
    });
    expect(((await verify.json()) as { error: { code: string } }).error.code).toBe('invalid_api_key');
    const listed = await session.calc(['admin', 'accounts', 'list', '--data', session.dataDir, '--json']);
    expect(JSON.stringify(jsonOf(listed.stdout))).not.toContain(owner.email);
  });

  test('without --yes and without a terminal it refuses and deletes nothing', async () => {
    const owner = await session.signedIn();
    const result = await session.calc(['account', 'delete', '--password-stdin'], {
      stdin: `${TEST_PASSWORD}\n`,
      env: owner.env,
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('--yes');
    expect(await statusWith(tokenIn(owner.configDir))).toBe(200);
  });

  test('a wrong password deletes nothing', async () => {
    const owner = await session.signedIn();
    const result = await session.calc(['account', 'delete', '--yes', '--password-stdin'], {
      stdin: 'not the password\n',
      env: owner.env,
    });
    expect(result.exitCode).toBe(1);
    expect(await statusWith(tokenIn(owner.configDir))).toBe(200);
  });
});

describe('operator commands', () => {
  test('admin accounts reset-password: a generated password shown once; every session ends; it signs in', async () => {
    const owner = await session.signedIn();
    const stored = tokenIn(owner.configDir);
    const result = await session.calc([
      'admin',
      'accounts',
      'reset-password',
      '--email',
      owner.email,
      '--data',
      session.dataDir,
      '--json',
    ]);
    expect(result.exitCode).toBe(0);
    const { password } = jsonOf<{ password: string }>(result.stdout);
    expect(password.length).toBeGreaterThanOrEqual(20);
    expect(await statusWith(stored)).toBe(401);
    expect(await statusWith(await secondToken(owner.email, password))).toBe(200);
  });

  test('admin accounts reset-password --password-stdin takes the given password', async () => {
    const owner = await session.signedIn();
    const result = await session.calc(
      ['admin', 'accounts', 'reset-password', '--email', owner.email, '--password-stdin', '--data', session.dataDir],
      { stdin: `${NEW_PASSWORD}\n` },
    );
    expect(result.exitCode).toBe(0);
    expect(result.stdout).not.toContain(NEW_PASSWORD);
    expect(await statusWith(await secondToken(owner.email, NEW_PASSWORD))).toBe(200);
  });

  test('admin accounts delete --yes deletes; without --yes off a terminal it refuses', async () => {
    const owner = await session.signedIn();
    const refused = await session.calc([
      'admin',
      'accounts',
      'delete',
      '--email',
      owner.email,
      '--data',
      session.dataDir,
    ]);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain('--yes');
    expect(await statusWith(tokenIn(owner.configDir))).toBe(200);
    const deleted = await session.calc([
      'admin',
      'accounts',
      'delete',
      '--email',
      owner.email,
      '--yes',
      '--data',
      session.dataDir,
      '--json',
    ]);
    expect(deleted.exitCode).toBe(0);
    expect(jsonOf<{ deleted: { email: string } }>(deleted.stdout).deleted.email).toBe(owner.email);
    expect(await statusWith(tokenIn(owner.configDir))).toBe(401);
    const unknown = await session.calc([
      'admin',
      'accounts',
      'delete',
      '--email',
      owner.email,
      '--yes',
      '--data',
      session.dataDir,
    ]);
    expect(unknown.exitCode).toBe(1);
  });
});
