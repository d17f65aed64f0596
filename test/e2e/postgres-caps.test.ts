/**
 * Two servers on one PostgreSQL database, in this process (real apps, real database, a
 * clock the test moves, flushes the test runs): refusals and skipped pulls add up exactly,
 * and an owner's daily cap holds across servers within what one flush interval lets
 * through (docs/api.md, "Owner limits").
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test';
import { join } from 'node:path';
import { createApp } from '../../src/app.ts';
import { loadServerConfig } from '../../src/config.ts';
import { openPostgres } from '../../src/db/postgres/client.ts';
import { silentLogger } from '../../src/logger.ts';
import { manualClock } from '../helpers/clock.ts';
import { usePostgres } from '../helpers/postgres.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { startTarget, type TargetServer } from '../helpers/webhook-target.ts';

setDefaultTimeout(60_000);

const pg = usePostgres();
const SHOP = 'https://shop.example';
const JWT_SECRET = 'shared-jwt-secret-for-both-servers-0123456789';
const HEADER_KEY = new Uint8Array(32).fill(9);

let target: TargetServer;
beforeAll(() => {
  target = startTarget('127.0.0.2', () => Response.json({ weightKg: 80 }));
});
afterAll(() => target.stop());

/** Two apps on one fresh database, sharing the secrets and the test's clock. */
async function twoServers(now: () => Date) {
  const url = await pg().createDatabase();
  const dir = tempDir();
  const servers = await Promise.all(
    ['a', 'b'].map(async (name) => {
      const config = loadServerConfig(
        { data: join(dir.path, name), 'rate-signup-per-hour': 0 },
        { CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.2/32' },
      );
      const database = await openPostgres(url);
      const app = createApp({
        config,
        database,
        jwtSecret: JWT_SECRET,
        headerKey: HEADER_KEY,
        now,
        logger: silentLogger,
      });
      await app.ready;
      return { app, database };
    }),
  );
  const call = async (i: number, method: string, path: string, body?: unknown, token?: string, origin?: string) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    if (origin) headers.origin = origin;
    const response = await (servers[i]?.app.handle(
      new Request(`http://calc.test${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    ) as Promise<Response>);
    return { status: response.status, json: (await response.json()) as Record<string, any> };
  };
  return {
    call,
    /** What the operator's commands do (`calc admin accounts set-plan`). */
    accounts: servers[0]?.app.accounts as ReturnType<typeof createApp>['accounts'],
    flush: (i: number) => servers[i]?.app.flush() as Promise<void>,
    async [Symbol.asyncDispose]() {
      for (const { database } of servers) await database.close();
      dir[Symbol.dispose]();
    },
  };
}

type Servers = Awaited<ReturnType<typeof twoServers>>;

async function ownerOn(servers: Servers) {
  const signup = await servers.call(0, 'POST', '/v1/auth/signup', {
    email: `owner-${crypto.randomUUID().slice(0, 6)}@shop.example`,
    password: 'correct horse battery',
  });
  expect(signup.status).toBe(201);
  const token: string = signup.json.token;
  await servers.call(1, 'POST', '/v1/domains', { domain: SHOP }, token);
  const apiKey: string = signup.json.account.apiKey;
  const load = (i: number, domain = SHOP, origin = domain) =>
    servers.call(i, 'POST', '/v1/widget/load', { apiKey, domain, calcId: 'bmi' }, undefined, origin);
  const usage = async () => (await servers.call(1, 'GET', '/v1/usage', undefined, token)).json;
  return { token, apiKey, id: signup.json.account.id as string, load, usage };
}

const TODAY = '2026-11-25';

test('refusals counted on two servers add up exactly, whatever order they flush in', async () => {
  await using servers = await twoServers(manualClock().now);
  const owner = await ownerOn(servers);
  // 40 refused calls, alternating servers and reasons, with flushes racing them.
  const calls = Array.from({ length: 40 }, (_, i) =>
    i % 2 === 0
      ? owner.load(i % 4 === 0 ? 0 : 1, 'https://elsewhere.example')
      : owner.load(i % 4 === 1 ? 0 : 1, SHOP, 'https://evil.example'),
  );
  const flushes = [servers.flush(0), servers.flush(1), servers.flush(0)];
  const answers = await Promise.all(calls);
  await Promise.all(flushes);
  expect(answers.map((a) => a.json.error?.code).sort()).toEqual([
    ...Array(20).fill('domain_not_registered'),
    ...Array(20).fill('origin_mismatch'),
  ]);
  await servers.flush(1);
  await servers.flush(0);
  expect((await owner.usage()).refused).toEqual([
    { date: TODAY, calcId: 'bmi', reason: 'domain_not_registered', count: 20 },
    { date: TODAY, calcId: 'bmi', reason: 'origin_mismatch', count: 20 },
  ]);
});

test('pullsPerSecond is a cap per server: each makes its pulls, the rest are skipped and add up exactly', async () => {
  await using servers = await twoServers(manualClock().now);
  const owner = await ownerOn(servers);
  await servers.accounts.setPlan(owner.id, 'extra');
  await servers.call(
    0,
    'PUT',
    '/v1/widget-config/bmi',
    { config: { webhook: { url: target.url('/two') } } },
    owner.token,
  );
  await servers.call(1, 'PUT', '/v1/account/limits', { pullsPerSecond: 2 }, owner.token);
  const before = target.hits;
  // Five loads on each server in one second of the clock: two pulls each.
  for (let i = 0; i < 10; i++) expect((await owner.load(i % 2)).status).toBe(200);
  expect(target.hits).toBe(before + 4);
  await Promise.all([servers.flush(0), servers.flush(1)]);
  const report = await owner.usage();
  expect(report.total).toBe(10);
  expect(report.webhook).toEqual([{ date: TODAY, calcId: 'bmi', outcome: 'ok', calls: 4 }]);
  expect(report.skipped).toEqual([{ date: TODAY, calcId: 'bmi', reason: 'capped', count: 6 }]);
});

test('a daily cap holds across servers: each reads the others’ loads at its next flush', async () => {
  await using servers = await twoServers(manualClock().now);
  const owner = await ownerOn(servers);
  await servers.call(0, 'PUT', '/v1/account/limits', { loadsPerDay: 10 }, owner.token);
  for (let i = 0; i < 6; i++) expect((await owner.load(0)).status).toBe(200);
  await servers.flush(0);
  // B reads the day when its first capped load comes: A's six are written by then.
  const onB = [];
  for (let i = 0; i < 5; i++) onB.push((await owner.load(1)).json.error?.code ?? 'ok');
  expect(onB).toEqual(['ok', 'ok', 'ok', 'ok', 'cap_reached']);
  await servers.flush(1);
  // A last read before B's four: one more passes there until A's next flush reads them.
  expect((await owner.load(0)).status).toBe(200);
  await servers.flush(0);
  expect((await owner.load(0)).json.error?.code).toBe('cap_reached');
  await servers.flush(0);
  const report = await owner.usage();
  expect(report.total).toBe(11);
  expect(report.refused).toEqual([{ date: TODAY, calcId: 'bmi', reason: 'cap_reached', count: 2 }]);
});
