import { expect, test } from 'bun:test';
import { join } from 'node:path';
import { logLines } from '../helpers/faults.ts';
import { useCompiledWithPostgres } from '../helpers/postgres.ts';
import { callJson, startServe } from '../helpers/process.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const setup = useCompiledWithPostgres();

const ENV = {
  CALC_JWT_SECRET: 'shared-jwt-secret-for-both-servers-0123456789',
  CALC_WEBHOOK_KEY: 'ab'.repeat(32),
  // A steady stream from one address: neither the quota nor the per-client limits may refuse it.
  CALC_QUOTA_FREE: '100000000',
  CALC_RATE_WIDGET_PER_MINUTE: '0',
  CALC_RATE_WIDGET_PER_DAY: '0',
};
const ORIGIN = 'https://shop.example';

/** A compiled server on a fresh database, with an owner whose page origin is registered. */
async function serverWithOwner(dir: string) {
  const { calc, pg } = setup;
  const env = { ...ENV, CALC_DATABASE_URL: await pg.createDatabase() };
  const server = await startServe([calc], ['--data', join(dir, 'a')], env);
  const signup = await callJson(server.url, 'POST', '/v1/auth/signup', {
    email: 'owner@shop.example',
    password: 'correct horse battery',
  });
  const token: string = signup.json.token;
  expect((await callJson(server.url, 'POST', '/v1/domains', { domain: ORIGIN }, token)).status).toBe(201);
  const apiKey: string = signup.json.account.apiKey;
  return { server, env, token, apiKey };
}

interface Answer {
  status: number;
  code?: string;
  retryAfter: string | null;
}

/** One request's status, error code and `Retry-After`. */
async function answer(url: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(url, init);
  const body = (await response.json().catch(() => ({}))) as { error?: { code: string } };
  return { status: response.status, code: body.error?.code, retryAfter: response.headers.get('retry-after') };
}

const widget = (base: string, route: 'load' | 'verify', apiKey: string) =>
  answer(`${base}/v1/widget/${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiKey, domain: ORIGIN, calcId: 'bmi' }),
  });

/** Waits until `check` holds (polling every 20 ms); answers how long it took, in ms. */
async function until(check: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  while (!(await check())) await Bun.sleep(20);
  return performance.now() - started;
}

test('PostgreSQL restarted three times under a steady stream of loads: no 500 on any route, every answered load counted once', async () => {
  const { calc, pg } = setup;
  using dir = tempDir();
  const { server, env, token, apiKey } = await serverWithOwner(dir.path);
  try {
    const answers: Answer[] = [];
    let loads = 0;
    let streaming = true;
    // Widget loads and verifies (native routes) and an owner read (an Elysia route).
    const stream = async (kind: 'load' | 'verify' | 'owner') => {
      while (streaming) {
        const got =
          kind === 'owner'
            ? await answer(`${server.url}/v1/domains`, { headers: { authorization: `Bearer ${token}` } })
            : await widget(server.url, kind, apiKey);
        answers.push(got);
        if (kind === 'load' && got.status === 200) loads += 1;
      }
    };
    const streams = (['load', 'load', 'load', 'verify', 'owner'] as const).map(stream);
    for (let restart = 0; restart < 3; restart++) {
      await pg.restart();
      // Served again before the next restart.
      await until(async () => (await widget(server.url, 'load', apiKey)).status === 200);
      loads += 1;
    }
    streaming = false;
    await Promise.all(streams);

    const refused = answers.filter((a) => a.status !== 200);
    const count = (status: number) => refused.filter((a) => a.status === status).length;
    console.log(`restarts: ${answers.length} answers, ${count(503)} × 503, ${count(500)} × 500`);
    expect(count(500)).toBe(0);
    // The restarts did reach requests, and each was refused as a fault.
    expect(refused.length).toBeGreaterThan(0);
    for (const one of refused) expect(one).toEqual({ status: 503, code: 'not_ready', retryAfter: '1' });

    const { exitCode, stderr } = await server.stop();
    expect(exitCode).toBe(0);
    // The log names the driver's causes, never an unhandled error.
    const lines = logLines(stderr);
    expect(lines.filter((line) => line.msg === 'unhandled error')).toEqual([]);
    const causes = new Set(
      lines.filter((line) => String(line.msg).startsWith('database fault')).map((line) => line.cause),
    );
    expect(causes.size).toBeGreaterThan(0);
    for (const cause of causes)
      expect(String(cause)).toMatch(/^(PostgresError (57P0|ERR_POSTGRES_CONNECTION)|DatabaseTimeout)/);

    const again = await startServe([calc], ['--data', join(dir.path, 'a')], env);
    try {
      const overview = await callJson(again.url, 'GET', '/v1/account', undefined, token);
      expect(overview.json.usage.used).toBe(loads);
    } finally {
      await again.stop();
    }
  } finally {
    if (server.proc.exitCode === null) await server.stop();
  }
}, 120_000);

test('PostgreSQL frozen (SIGSTOP): /readyz 503 within 2.5 s, loads and owner routes 503 not_ready, all served within 2 s of SIGCONT', async () => {
  const { pg } = setup;
  using dir = tempDir();
  const { server, token, apiKey } = await serverWithOwner(dir.path);
  let frozen = false;
  try {
    expect((await widget(server.url, 'load', apiKey)).status).toBe(200);
    expect((await answer(`${server.url}/readyz`)).status).toBe(200);

    pg.freeze();
    frozen = true;
    const notReady = await until(async () => (await answer(`${server.url}/readyz`)).status === 503);
    console.log(`frozen: /readyz 503 after ${Math.round(notReady)} ms`);
    expect(notReady).toBeLessThan(2500);
    expect(await answer(`${server.url}/readyz`)).toEqual({ status: 503, code: 'not_ready', retryAfter: '1' });
    const [load, verify, owner] = await Promise.all([
      widget(server.url, 'load', apiKey),
      widget(server.url, 'verify', apiKey),
      answer(`${server.url}/v1/domains`, { headers: { authorization: `Bearer ${token}` } }),
    ]);
    for (const refused of [load, verify, owner])
      expect(refused).toEqual({ status: 503, code: 'not_ready', retryAfter: '1' });

    pg.thaw();
    frozen = false;
    const served = await until(async () => {
      const burst = await Promise.all(Array.from({ length: 10 }, () => widget(server.url, 'load', apiKey)));
      return burst.every((a) => a.status === 200);
    });
    console.log(`thawed: all loads 200 after ${Math.round(served)} ms`);
    expect(served).toBeLessThan(2000);
    await until(async () => (await answer(`${server.url}/readyz`)).status === 200);

    const lines = logLines((await server.stop()).stderr);
    expect(lines.filter((line) => line.msg === 'unhandled error')).toEqual([]);
    expect(lines.some((line) => line.cause === 'DatabaseTimeout: PostgreSQL did not answer within 1500 ms')).toBe(true);
  } finally {
    if (frozen) pg.thaw();
    if (server.proc.exitCode === null) await server.stop();
  }
}, 120_000);
