import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTokenService } from '../../src/security/session-tokens.ts';
import { closedPort } from '../helpers/webhook-target.ts';
import { jsonOf, startCliSession, TEST_PASSWORD, type CliSession } from '../helpers/cli-session.ts';

// Every test starts processes; a loaded machine must not turn that into a failure.
setDefaultTimeout(30_000);

const JWT_SECRET = 'cli-test-secret-that-is-long-enough-0123456789';

let session: CliSession;
beforeAll(async () => {
  session = await startCliSession({ serveEnv: { CALC_JWT_SECRET: JWT_SECRET } });
}, 30_000);
afterAll(() => session[Symbol.asyncDispose]());

describe('calc login', () => {
  test('--password-stdin signs in, stores a private credentials file and prints a confirmation', async () => {
    const account = await session.createAccount('base');
    const configDir = join(session.dataDir, '..', 'login-private');
    const result = await session.calc(['login', '--email', account.email, '--password-stdin'], {
      stdin: `${account.password}\n`,
      env: { CALC_CONFIG_DIR: configDir },
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(`Signed in to ${session.url} as ${account.email} (Base plan)`);
    expect(result.stdout + result.stderr).not.toContain(account.password);
    const file = join(configDir, 'credentials.json');
    expect(statSync(configDir).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(readFileSync(file, 'utf8'));
    expect(Object.keys(stored).sort()).toEqual(['apiUrl', 'email', 'expiresAt', 'token']);
    expect(stored).toMatchObject({ apiUrl: session.url, email: account.email });
    expect(stored).not.toHaveProperty('password');
  });

  test('--json prints exactly the POST /v1/auth/login body', async () => {
    const account = await session.createAccount();
    const result = await session.calc(['login', '--email', account.email, '--password-stdin', '--json'], {
      stdin: `${account.password}\n`,
      env: { CALC_CONFIG_DIR: join(session.dataDir, '..', 'login-json') },
    });
    expect(result.exitCode).toBe(0);
    const body = jsonOf<{ token: string; expiresAt: string; account: { email: string } }>(result.stdout);
    expect(Object.keys(body).sort()).toEqual(['account', 'expiresAt', 'token']);
    expect(body.account.email).toBe(account.email);
  });

  test('a wrong password shows the server message and exits 1', async () => {
    const account = await session.createAccount();
    const result = await session.calc(['login', '--email', account.email, '--password-stdin'], {
      stdin: 'not the password\n',
    });
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('Error: Email or password is wrong.\n');
  });

  test('with no terminal and no --password-stdin it says to use --password-stdin and exits 1', async () => {
    const result = await session.calc(['login', '--email', 'someone@shop.example']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('--password-stdin');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  test('--password-stdin without --email exits 1', async () => {
    const result = await session.calc(['login', '--password-stdin'], { stdin: 'whatever-password\n' });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('--email is required');
  });

  test('an unknown flag is a syntax error: exit 2', async () => {
    const result = await session.calc(['login', '--password', 'hunter2hunter2']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('Nonexistent flag: --password');
  });

  test('with --json, syntax errors still exit 2 and leave stdout empty', async () => {
    for (const args of [
      ['whoami', '--json', '--bogus'],
      ['config', 'get', '--json'],
      ['domains', 'add', '--json'],
    ]) {
      const result = await session.calc(args);
      expect({ args, exitCode: result.exitCode, stdout: result.stdout }).toEqual({ args, exitCode: 2, stdout: '' });
      expect(JSON.parse(result.stderr).error.code).toBe('usage');
    }
  });
});

describe('calc whoami and calc logout', () => {
  test('whoami shows account, plan and usage; --json is exactly GET /v1/account', async () => {
    const owner = await session.signedIn('extra');
    const human = await session.calc(['whoami'], { env: owner.env });
    expect(human.exitCode).toBe(0);
    expect(human.stdout).toMatch(new RegExp(`Email:\\s+${owner.email.replace('.', '\\.')}`));
    expect(human.stdout).toMatch(/Plan:\s+Extra\n/);
    expect(human.stdout).toMatch(/Usage:\s+0 of 1,000,000 widget loads in \d{4}-\d{2} \(0%\)/);
    expect(human.stdout).toContain(owner.apiKey);

    const json = await session.calc(['whoami', '--json'], { env: owner.env });
    expect(json.exitCode).toBe(0);
    const body = jsonOf<{
      account: { email: string; plan: string };
      usage: { used: number; limit: number };
      publicUrl: string;
    }>(json.stdout);
    expect(Object.keys(body).sort()).toEqual(['account', 'publicUrl', 'usage']);
    expect(body.account).toMatchObject({ email: owner.email, plan: 'extra' });
    expect(body.usage).toMatchObject({ used: 0, limit: 1_000_000 });
    expect(body.publicUrl).toBe(session.url);
  });

  test('logout forgets the token; then whoami exits 4 and says to run calc login', async () => {
    const owner = await session.signedIn();
    const out = await session.calc(['logout'], { env: owner.env });
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toContain('Signed out');
    expect(existsSync(join(owner.configDir, 'credentials.json'))).toBe(false);

    const again = await session.calc(['logout', '--json'], { env: owner.env });
    expect(again.exitCode).toBe(0);
    expect(jsonOf(again.stdout)).toEqual({ loggedOut: true });

    const whoami = await session.calc(['whoami'], { env: owner.env });
    expect(whoami.exitCode).toBe(4);
    expect(whoami.stdout).toBe('');
    expect(whoami.stderr).toBe('Error: Not signed in. Run `calc login`.\n');
  });

  test('--json failures keep stdout empty and put the error on stderr', async () => {
    const result = await session.calc(['whoami', '--json']);
    expect(result.exitCode).toBe(4);
    expect(result.stdout).toBe('');
    expect(jsonOf<{ error: { message: string } }>(result.stderr).error.message).toContain('calc login');
  });
});

describe('rejected tokens exit 4', () => {
  const tokenFor = async (secret: string, now: Date, accountId: string) =>
    (await createTokenService(secret, 60, () => now).issue(accountId)).token;

  test('an expired token (CALC_TOKEN) is refused by the server: exit 4', async () => {
    const owner = await session.signedIn();
    const id = jsonOf<{ account: { id: string } }>(
      (await session.calc(['whoami', '--json'], { env: owner.env })).stdout,
    ).account.id;
    const expired = await tokenFor(JWT_SECRET, new Date(Date.now() - 3_600_000), id);
    const result = await session.calc(['whoami'], { env: { CALC_TOKEN: expired } });
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('The session token is invalid or has expired.');
    expect(result.stderr).toContain('Run `calc login`.');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  test('a forged token (signed with another secret) is refused: exit 4, with the server code under --json', async () => {
    const forged = await tokenFor('an-attacker-secret-that-is-long-enough-999', new Date(), 'acct_whatever');
    const result = await session.calc(['domains', '--json'], { env: { CALC_TOKEN: forged } });
    expect(result.exitCode).toBe(4);
    expect(result.stdout).toBe('');
    expect(jsonOf<{ error: { code: string } }>(result.stderr).error.code).toBe('unauthorized');
  });

  test('a stored login past its expiry exits 4 without asking the server', async () => {
    const configDir = join(session.dataDir, '..', 'expired-login');
    mkdirSync(configDir, { recursive: true });
    writeFileSync(
      join(configDir, 'credentials.json'),
      JSON.stringify({
        apiUrl: session.url,
        token: 'x.y.z',
        email: 'old@shop.example',
        expiresAt: '2020-01-01T00:00:00.000Z',
      }),
    );
    const result = await session.calc(['whoami'], { env: { CALC_CONFIG_DIR: configDir } });
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('expired at 2020-01-01T00:00:00.000Z');
    expect(result.stderr).toContain('calc login');
  });

  test('a stored login is used for its own server only, never sent to another one', async () => {
    const owner = await session.signedIn();
    const result = await session.calc(['whoami', '--api-url', 'http://127.0.0.1:9'], { env: owner.env });
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain(`Not signed in to http://127.0.0.1:9 (the stored login is for ${session.url})`);
    // Without --api-url or CALC_API_URL the stored login picks its own server.
    const stored = await session.calc(['whoami', '--json'], { env: { ...owner.env, CALC_API_URL: '' } });
    expect(stored.exitCode).toBe(0);
  });
});

describe('calc signup', () => {
  test('creates a Free account, signs in, and --json is the POST /v1/auth/signup body', async () => {
    const email = `new-${Date.now()}@shop.example`;
    const env = { CALC_CONFIG_DIR: join(session.dataDir, '..', 'signup') };
    const result = await session.calc(['signup', '--email', email, '--password-stdin', '--json'], {
      stdin: `${TEST_PASSWORD}\n`,
      env,
    });
    expect(result.exitCode).toBe(0);
    const body = jsonOf<{ account: { email: string; plan: string } }>(result.stdout);
    expect(body.account).toMatchObject({ email, plan: 'free' });
    expect((await session.calc(['whoami'], { env })).exitCode).toBe(0);
  });

  test('server refusals are shown as the server says them: taken email, short password', async () => {
    const account = await session.createAccount();
    const taken = await session.calc(['signup', '--email', account.email, '--password-stdin'], {
      stdin: `${TEST_PASSWORD}\n`,
    });
    expect(taken.exitCode).toBe(1);
    const short = await session.calc(
      ['signup', '--email', `short-${Date.now()}@shop.example`, '--password-stdin', '--json'],
      { stdin: 'short\n' },
    );
    expect(short.exitCode).toBe(1);
    const takenMessage = await serverMessage('/v1/auth/signup', { email: account.email, password: TEST_PASSWORD });
    expect(taken.stderr).toBe(`Error: ${takenMessage}\n`);
    expect(jsonOf<{ error: { code: string } }>(short.stderr).error.code).toBe('invalid_request');
  });
});

describe('network failures exit 1 with one line and no stack trace', () => {
  const oneLine = (stderr: string) => {
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).not.toMatch(/\bat .+:\d+:\d+/);
  };

  test('server down (a closed port)', async () => {
    const port = await closedPort('127.0.0.1');
    const result = await session.calc(['calculators', '--api-url', `http://127.0.0.1:${port}`]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('connection refused');
    oneLine(result.stderr);
  });

  test('a server that never answers times out', async () => {
    const silent = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      idleTimeout: 0,
      fetch: () => new Promise<Response>(() => {}),
    });
    try {
      const result = await session.calc(['calculators', '--api-url', `http://127.0.0.1:${silent.port}`], {
        env: { CALC_TIMEOUT_MS: '300' },
      });
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toContain('No answer from the calc server');
      oneLine(result.stderr);
    } finally {
      await silent.stop(true);
    }
  });

  test('an unknown host', async () => {
    const result = await session.calc(['calculators', '--api-url', 'http://calc-host-that-does-not-exist.invalid']);
    expect(result.exitCode).toBe(1);
    oneLine(result.stderr);
  });

  test('something that is not a calc server', async () => {
    const other = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch: () => new Response('<html>hello</html>', { status: 502 }),
    });
    try {
      const result = await session.calc(['calculators', '--api-url', `http://127.0.0.1:${other.port}`]);
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toContain('HTTP 502');
      oneLine(result.stderr);
    } finally {
      await other.stop(true);
    }
  });

  test('a bad --api-url or CALC_API_URL is a rejected value: exit 1', async () => {
    for (const [args, env] of [
      [['calculators', '--api-url', 'ftp://calc.example'], {}],
      [['calculators', '--api-url', 'https://user:pw@calc.example'], {}],
      [['calculators'], { CALC_API_URL: 'not a url' }],
    ] as const) {
      const result = await session.calc([...args], { env });
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toContain('is not a server address');
    }
  });
});

async function serverMessage(path: string, body: unknown): Promise<string> {
  const response = await fetch(`${session.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return ((await response.json()) as { error: { message: string } }).error.message;
}
