import { expect, test } from 'bun:test';
import { join } from 'node:path';
import { callJson, runCommand, startServe } from '../helpers/process.ts';
import { existsSync } from 'node:fs';
import { useCompiledWithPostgres } from '../helpers/postgres.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { startTarget } from '../helpers/webhook-target.ts';

const setup = useCompiledWithPostgres();

const SECRETS = {
  CALC_JWT_SECRET: 'shared-jwt-secret-for-both-servers-0123456789',
  CALC_WEBHOOK_KEY: 'ab'.repeat(32),
};
const ORIGIN = 'https://shop.example';

/** Two compiled servers on one database, started at once, each with its own data directory. */
function startTogether(calc: string, dir: string, env: Record<string, string>) {
  return Promise.all([
    startServe([calc], ['--data', join(dir, 'a')], env),
    startServe([calc], ['--data', join(dir, 'b')], env),
  ]);
}

test('without the shared secrets, a server with a database URL refuses to start and names them', async () => {
  const { calc, pg } = setup;
  using dir = tempDir();
  const proc = Bun.spawn([calc, 'serve', '--port', '0', '--data', join(dir.path, 'd')], {
    env: { ...process.env, CALC_DATABASE_URL: await pg.createDatabase(), CALC_JWT_SECRET: '', CALC_WEBHOOK_KEY: '' },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [stderr, exitCode] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  expect(exitCode).not.toBe(0);
  expect(stderr).toContain('CALC_JWT_SECRET');
  expect(stderr).toContain('CALC_WEBHOOK_KEY');
}, 60_000);

test('two compiled servers on one database: both start together and share every write at once', async () => {
  const { calc, pg } = setup;
  using dir = tempDir();
  const env = { ...SECRETS, CALC_DATABASE_URL: await pg.createDatabase() };
  // Both start together on the empty database: migrations take turns under the lock.
  const [a, b] = await startTogether(calc, dir.path, env);
  try {
    const signup = await callJson(a.url, 'POST', '/v1/auth/signup', {
      email: 'owner@shop.example',
      password: 'correct horse battery',
    });
    expect(signup.status).toBe(201);
    // Sign-up on one, sign-in on the other.
    const login = await callJson(b.url, 'POST', '/v1/auth/login', {
      email: 'owner@shop.example',
      password: 'correct horse battery',
    });
    expect(login.status).toBe(200);
    const token: string = login.json.token;
    // A domain added on one serves loads on the other at once.
    expect((await callJson(a.url, 'POST', '/v1/domains', { domain: ORIGIN }, token)).status).toBe(201);
    const apiKey: string = signup.json.account.apiKey;
    const load = (base: string, key: string) =>
      callJson(base, 'POST', '/v1/widget/load', { apiKey: key, domain: ORIGIN, calcId: 'bmi' });
    expect((await load(b.url, apiKey)).status).toBe(200);
    // Key rotation on one: the old key stops on the other at once.
    const rotated = await callJson(b.url, 'POST', '/v1/account/rotate-api-key', undefined, token);
    expect(rotated.status).toBe(200);
    expect((await load(a.url, apiKey)).status).toBe(401);
    const newKey: string = rotated.json.account.apiKey;
    // Loads on both servers at once add up exactly in the shared database.
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => load(i % 2 === 0 ? a.url : b.url, newKey)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect((await a.stop()).exitCode).toBe(0);
    expect((await b.stop()).exitCode).toBe(0);
    const again = await startServe([calc], ['--data', join(dir.path, 'a')], env);
    try {
      const overview = await callJson(again.url, 'GET', '/v1/account', undefined, token);
      expect(overview.json.usage.used).toBe(41);
    } finally {
      await again.stop();
    }
  } finally {
    for (const server of [a, b]) if (server.proc.exitCode === null) await server.stop();
  }
}, 120_000);

test('funnel steps reported to two servers at once add up exactly in the shared database, none doubled', async () => {
  const { calc, pg } = setup;
  using dir = tempDir();
  const env = { ...SECRETS, CALC_DATABASE_URL: await pg.createDatabase() };
  const [a, b] = await startTogether(calc, dir.path, env);
  try {
    const signup = await callJson(a.url, 'POST', '/v1/auth/signup', {
      email: 'owner@shop.example',
      password: 'correct horse battery',
    });
    const token: string = signup.json.token;
    const apiKey: string = signup.json.account.apiKey;
    expect((await callJson(a.url, 'POST', '/v1/domains', { domain: ORIGIN }, token)).status).toBe(201);
    const report = (base: string, events: string[]) =>
      callJson(base, 'POST', '/v1/widget/events', { apiKey, domain: ORIGIN, calcId: 'bmi', events });
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        report(i % 2 === 0 ? a.url : b.url, i % 3 === 0 ? ['view', 'start', 'complete'] : ['view']),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 60 }, () => 204));
    const expected = { views: 60, starts: 20, completes: 20, submits: 0 };
    /** The totals one server answers once the other's flush (every second) has reached the database. */
    const totalsOn = async (base: string) => {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const { total } = (await callJson(base, 'GET', '/v1/usage/funnel', undefined, token)).json;
        if (total.views === expected.views || Date.now() > deadline) return total;
        await Bun.sleep(50);
      }
    };
    expect(await totalsOn(a.url)).toMatchObject(expected);
    expect(await totalsOn(b.url)).toMatchObject(expected);
    expect((await a.stop()).exitCode).toBe(0);
    expect((await b.stop()).exitCode).toBe(0);
    const again = await startServe([calc], ['--data', join(dir.path, 'a')], env);
    try {
      const usage = (await callJson(again.url, 'GET', '/v1/usage', undefined, token)).json;
      expect(usage.funnel).toMatchObject([{ calcId: 'bmi', domain: ORIGIN, ...expected }]);
      expect(usage.period.used).toBe(0);
    } finally {
      await again.stop();
    }
  } finally {
    for (const server of [a, b]) if (server.proc.exitCode === null) await server.stop();
  }
}, 120_000);

test('failed sign-ins are limited across servers: guesses spread over two servers meet one limit', async () => {
  const { calc, pg } = setup;
  using dir = tempDir();
  const env = { ...SECRETS, CALC_DATABASE_URL: await pg.createDatabase() };
  const [a, b] = await startTogether(calc, dir.path, env);
  try {
    const email = 'owner@shop.example';
    const password = 'correct horse battery';
    expect((await callJson(a.url, 'POST', '/v1/auth/signup', { email, password })).status).toBe(201);
    // Ten wrong guesses, alternating servers: each server alone has seen only five.
    for (let i = 0; i < 10; i++) {
      const guess = await callJson(i % 2 === 0 ? a.url : b.url, 'POST', '/v1/auth/login', {
        email,
        password: `wrong password ${i}`,
      });
      expect(guess.status).toBe(401);
    }
    // The shared limit is reached on both, even for the right password.
    for (const base of [a.url, b.url]) {
      const limited = await callJson(base, 'POST', '/v1/auth/login', { email, password });
      expect(limited.status).toBe(429);
      expect(limited.json.error.code).toBe('rate_limited');
    }
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
}, 120_000);

test('last webhook outcomes are shared: a call through one server shows on the other after a flush', async () => {
  const { calc, pg } = setup;
  using dir = tempDir();
  let failing = false;
  const target = startTarget('127.0.0.2', () =>
    failing ? new Response('down', { status: 500 }) : Response.json({ weightKg: 80 }),
  );
  const env = { ...SECRETS, CALC_DATABASE_URL: await pg.createDatabase(), CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.2/32' };
  const created = await runCommand(
    [calc],
    ['admin', 'accounts', 'create', '--email', 'owner@shop.example', '--plan', 'extra', '--password-stdin', '--json'],
    { env, stdin: 'correct horse battery\n' },
  );
  expect(created.exitCode).toBe(0);
  const { apiKey } = JSON.parse(created.stdout).account as { apiKey: string };
  const [a, b] = await startTogether(calc, dir.path, env);
  try {
    const login = await callJson(a.url, 'POST', '/v1/auth/login', {
      email: 'owner@shop.example',
      password: 'correct horse battery',
    });
    const token: string = login.json.token;
    expect((await callJson(a.url, 'POST', '/v1/domains', { domain: ORIGIN }, token)).status).toBe(201);
    const saved = await callJson(
      a.url,
      'PUT',
      '/v1/widget-config/bmi',
      { config: { webhook: { url: target.url() } } },
      token,
    );
    expect(saved.status).toBe(200);
    const load = (base: string) => callJson(base, 'POST', '/v1/widget/load', { apiKey, domain: ORIGIN, calcId: 'bmi' });
    /** Reads the last outcome on `base` until it is `outcome` (servers flush once a second). */
    const outcomeOn = async (base: string, outcome: string) => {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const status = (await callJson(base, 'GET', '/v1/widget-config/bmi', undefined, token)).json.webhookStatus;
        if (status?.outcome === outcome || Date.now() > deadline) return status?.outcome ?? null;
        await Bun.sleep(50);
      }
    };
    // Before any call, neither server has an outcome to show.
    expect((await callJson(b.url, 'GET', '/v1/widget-config/bmi', undefined, token)).json.webhookStatus).toBeNull();
    expect((await load(a.url)).json.values).toEqual({ weightKg: 80 });
    expect(await outcomeOn(b.url, 'ok')).toBe('ok');
    // A newer outcome through the other server replaces it on both, also on the server
    // whose own (older) outcome may still be in its memory.
    failing = true;
    expect((await load(b.url)).json.values).toEqual({});
    expect(await outcomeOn(a.url, 'http_error')).toBe('http_error');
    expect(await outcomeOn(b.url, 'http_error')).toBe('http_error');
    expect(target.hits).toBe(2);
  } finally {
    await Promise.all([a.stop(), b.stop(), target.stop()]);
  }
}, 120_000);

test('database stopped and restarted under load: 503 not_ready within 2 s, recovery without a restart, no acknowledged count lost', async () => {
  const { calc, pg } = setup;
  using dir = tempDir();
  const env = { ...SECRETS, CALC_DATABASE_URL: await pg.createDatabase() };
  const server = await startServe([calc], ['--data', join(dir.path, 'a')], env);
  let restarted = false;
  try {
    const signup = await callJson(server.url, 'POST', '/v1/auth/signup', {
      email: 'owner@shop.example',
      password: 'correct horse battery',
    });
    const token: string = signup.json.token;
    await callJson(server.url, 'POST', '/v1/domains', { domain: ORIGIN }, token);
    const load = () =>
      callJson(server.url, 'POST', '/v1/widget/load', {
        apiKey: signup.json.account.apiKey,
        domain: ORIGIN,
        calcId: 'bmi',
      });
    let acknowledged = 0;
    for (let i = 0; i < 10; i++) if ((await load()).status === 200) acknowledged += 1;
    expect(acknowledged).toBe(10);

    pg.halt();
    // Readiness turns 503 once a ping fails.
    for (;;) {
      if ((await callJson(server.url, 'GET', '/readyz')).status === 503) break;
      await Bun.sleep(50);
    }
    // Loads whose account is no longer in memory need the database: a fast 503, no hang.
    const started = performance.now();
    const during = await callJson(server.url, 'POST', '/v1/auth/login', {
      email: 'owner@shop.example',
      password: 'correct horse battery',
    });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(during.status).toBe(503);
    expect(during.json.error.code).toBe('not_ready');

    pg.resume();
    restarted = true;
    for (;;) {
      if ((await callJson(server.url, 'GET', '/readyz')).status === 200) break;
      await Bun.sleep(50);
    }
    expect((await load()).status).toBe(200);
    acknowledged += 1;
    expect((await server.stop()).exitCode).toBe(0);
    const again = await startServe([calc], ['--data', join(dir.path, 'a')], env);
    try {
      const overview = await callJson(again.url, 'GET', '/v1/account', undefined, token);
      expect(overview.json.usage.used).toBe(acknowledged);
    } finally {
      await again.stop();
    }
  } finally {
    if (!restarted) pg.resume();
    if (server.proc.exitCode === null) await server.stop();
  }
}, 120_000);

test('calc admin backup with a database URL says to use pg_dump and writes nothing', async () => {
  const { calc } = setup;
  using dir = tempDir();
  const file = join(dir.path, 'copy.db');
  const res = await runCommand([calc], ['admin', 'backup', file, '--data', join(dir.path, 'd')], {
    env: { CALC_DATABASE_URL: 'postgres://calc@127.0.0.1:1/calc' },
  });
  expect(res.exitCode).toBe(1);
  expect(res.stderr).toContain('pg_dump');
  expect(existsSync(file)).toBe(false);
}, 60_000);

test('operator commands act on the shared database: create, set-plan (a downgrade at once on both servers), list, reset-password, delete', async () => {
  const { calc, pg } = setup;
  using dir = tempDir();
  // One load a month on the free plan: a downgrade shows as a refused load.
  const env = { ...SECRETS, CALC_DATABASE_URL: await pg.createDatabase(), CALC_QUOTA_FREE: '1' };
  // Operator commands read the URL from the environment like the servers, or from the flag.
  const admin = async (...args: string[]) => {
    const res = await runCommand([calc], ['admin', 'accounts', ...args, '--json', '--data', join(dir.path, 'none')], {
      env,
      stdin: 'correct horse battery\n',
    });
    expect(res.stderr).toBe('');
    expect(res.exitCode).toBe(0);
    return JSON.parse(res.stdout);
  };
  const email = 'owner@shop.example';
  const created = await admin('create', '--email', email, '--plan', 'extra', '--password-stdin');
  expect(created.account.plan).toBe('extra');
  const [a, b] = await startTogether(calc, dir.path, env);
  try {
    const login = await callJson(b.url, 'POST', '/v1/auth/login', { email, password: 'correct horse battery' });
    expect(login.status).toBe(200);
    const token: string = login.json.token;
    expect((await callJson(a.url, 'POST', '/v1/domains', { domain: ORIGIN }, token)).status).toBe(201);
    const load = (base: string) =>
      callJson(base, 'POST', '/v1/widget/load', { apiKey: created.account.apiKey, domain: ORIGIN, calcId: 'bmi' });
    expect((await load(a.url)).status).toBe(200);
    expect((await load(b.url)).status).toBe(200);

    expect((await admin('set-plan', '--email', email, '--plan', 'free')).account.plan).toBe('free');
    for (const base of [a.url, b.url]) {
      expect((await callJson(base, 'GET', '/v1/account', undefined, token)).json.account.plan).toBe('free');
      const refused = await load(base);
      expect(refused.status).toBe(429);
      expect(refused.json.error.code).toBe('quota_exceeded');
    }
    expect((await admin('list')).accounts.map((x: { email: string; plan: string }) => [x.email, x.plan])).toEqual([
      [email, 'free'],
    ]);
    // A reset signs the account out everywhere.
    const reset = await admin('reset-password', '--email', email);
    expect(typeof reset.password).toBe('string');
    for (const base of [a.url, b.url])
      expect((await callJson(base, 'GET', '/v1/account', undefined, token)).status).toBe(401);
    expect(
      (await callJson(a.url, 'POST', '/v1/auth/login', { email, password: reset.password as string })).status,
    ).toBe(200);
    expect((await admin('delete', '--email', email, '--yes')).deleted.email).toBe(email);
    expect((await load(b.url)).status).toBe(401);
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
}, 120_000);
