import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { testApp, type TestApp } from '../helpers/test-app.ts';
import { startTarget, type TargetServer } from '../helpers/webhook-target.ts';

// Sign-ups hash passwords with argon2: a loaded machine must not turn that into a failure.
setDefaultTimeout(20_000);

const SHOP = 'https://shop.example';
const BLOG = 'https://blog.shop.example';

/** A test app whose clock the test moves. */
function clockedApp(start: string, options: Parameters<typeof testApp>[0] = {}) {
  const clock = { now: new Date(start) };
  const app = testApp({ ...options, now: () => clock.now });
  return { app, clock };
}

async function owner(app: TestApp, domains: string[] = [SHOP, BLOG]) {
  const account = await app.signup();
  for (const domain of domains) await app.request('POST', '/v1/domains', { token: account.token, body: { domain } });
  return account;
}

async function load(app: TestApp, apiKey: string, calcId = 'bmi', domain = SHOP) {
  const res = await app.request('POST', '/v1/widget/load', {
    body: { apiKey, domain, calcId },
    headers: { origin: domain },
  });
  return res.status;
}

const usage = (app: TestApp, token: string, query = '') => app.request('GET', `/v1/usage${query}`, { token });

describe('GET /v1/usage', () => {
  test('defaults to the 30 days ending today (UTC), with this month and nothing else', async () => {
    const { app } = clockedApp('2026-03-10T23:30:00-02:00');
    using _ = app;
    const { token } = await owner(app);
    const res = await usage(app, token);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      from: '2026-02-10',
      to: '2026-03-11',
      period: { period: '2026-03', used: 0, limit: 1000 },
      total: 0,
      rows: [],
      webhook: [],
      refused: [],
      skipped: [],
      funnel: [],
    });
    // Only `to`: the 30 days ending then. Only `from`: from then to today.
    expect((await usage(app, token, '?to=2026-01-31')).json).toMatchObject({ from: '2026-01-02', to: '2026-01-31' });
    expect((await usage(app, token, '?from=2026-03-01')).json).toMatchObject({ from: '2026-03-01', to: '2026-03-11' });
  });

  test('refuses bad ranges with 400 invalid_request and no token with 401', async () => {
    const { app } = clockedApp('2026-03-10T12:00:00Z');
    using _ = app;
    const { token } = await owner(app);
    const cases: [string, number][] = [
      ['?from=2026-02-30', 400],
      ['?to=2025-02-29', 400],
      ['?from=2026-13-01', 400],
      ['?from=2026-3-1', 400],
      ['?from=yesterday', 400],
      ['?from=2026-03-01T00:00:00Z', 400],
      ['?from=2026-03-10&to=2026-03-09', 400],
      ['?from=2025-03-08&to=2026-03-10', 400],
      ['?from=2025-03-09&to=2026-03-10', 200],
      ['?from=2024-02-29&to=2024-02-29', 200],
      ['?from=2027-01-01&to=2027-01-01', 200],
    ];
    for (const [query, status] of cases) {
      const res = await usage(app, token, query);
      expect({ query, status: res.status }).toEqual({ query, status });
      if (status === 400) {
        expect(res.json.error.code).toBe('invalid_request');
        expect(res.json.error.message).toBeString();
        expect(res.text).not.toMatch(/\n\s+at /);
      }
    }
    expect((await usage(app, token, '?from=2026-03-10&to=2026-03-09')).json.error.message).toContain('after');
    expect((await usage(app, token, '?from=2025-03-08&to=2026-03-10')).json.error.message).toContain('366');
    const anonymous = await app.request('GET', '/v1/usage');
    expect(anonymous.status).toBe(401);
    expect(anonymous.json.error.code).toBe('unauthorized');
  });

  test('rows per day, calculator and origin, sorted, stored and unflushed alike; the day turns at UTC midnight', async () => {
    const { app, clock } = clockedApp('2026-03-09T23:59:59.000Z');
    using _ = app;
    const { token, apiKey } = await owner(app);
    expect(await load(app, apiKey, 'tip', SHOP)).toBe(200);
    expect(await load(app, apiKey, 'bmi', SHOP)).toBe(200);
    await app.flush();
    clock.now = new Date('2026-03-09T23:59:59.999Z');
    expect(await load(app, apiKey, 'bmi', SHOP)).toBe(200);
    clock.now = new Date('2026-03-10T00:00:00.000Z');
    expect(await load(app, apiKey, 'bmi', BLOG)).toBe(200);
    expect(await load(app, apiKey, 'bmi', SHOP)).toBe(200);
    await app.flush();
    // Unflushed rows go in between stored ones, and onto stored ones.
    expect(await load(app, apiKey, 'bmi', SHOP)).toBe(200);
    expect(await load(app, apiKey, 'bmi', BLOG)).toBe(200);
    clock.now = new Date('2026-03-09T12:00:00.000Z');
    expect(await load(app, apiKey, 'loan', BLOG)).toBe(200);
    expect(await load(app, apiKey, 'bmi', BLOG)).toBe(200);
    clock.now = new Date('2026-03-10T08:00:00.000Z');

    const expected = {
      from: '2026-03-09',
      to: '2026-03-10',
      period: { period: '2026-03', used: 9, limit: 1000 },
      total: 9,
      rows: [
        { date: '2026-03-09', calcId: 'bmi', domain: BLOG, loads: 1 },
        { date: '2026-03-09', calcId: 'bmi', domain: SHOP, loads: 2 },
        { date: '2026-03-09', calcId: 'loan', domain: BLOG, loads: 1 },
        { date: '2026-03-09', calcId: 'tip', domain: SHOP, loads: 1 },
        { date: '2026-03-10', calcId: 'bmi', domain: BLOG, loads: 2 },
        { date: '2026-03-10', calcId: 'bmi', domain: SHOP, loads: 2 },
      ],
      webhook: [],
      refused: [],
      skipped: [],
      funnel: [],
    };
    const before = await usage(app, token, '?from=2026-03-09&to=2026-03-10');
    expect(before.json).toEqual(expected);
    await app.flush();
    expect((await usage(app, token, '?from=2026-03-09&to=2026-03-10')).json).toEqual(expected);
    // A range holds only its own days.
    const oneDay = await usage(app, token, '?from=2026-03-10&to=2026-03-10');
    expect(oneDay.json.rows.map((row: { date: string }) => row.date)).toEqual(['2026-03-10', '2026-03-10']);
    expect(oneDay.json.total).toBe(4);
  });

  test('refused loads and verifies count nowhere; each account sees only its own rows', async () => {
    const { app } = clockedApp('2026-03-10T12:00:00Z', { flags: { 'quota-free': 2 } });
    using _ = app;
    const alice = await owner(app);
    const bob = await owner(app);
    expect(await load(app, alice.apiKey)).toBe(200);
    expect(await load(app, alice.apiKey)).toBe(200);
    expect(await load(app, alice.apiKey)).toBe(429);
    expect(await load(app, alice.apiKey, 'no-such-calculator')).toBe(404);
    expect(await load(app, alice.apiKey, 'bmi', 'https://elsewhere.example')).toBe(403);
    await app.request('POST', '/v1/widget/verify', {
      body: { apiKey: bob.apiKey, domain: SHOP, calcId: 'bmi' },
      headers: { origin: SHOP },
    });
    expect(await load(app, bob.apiKey, 'tip', BLOG)).toBe(200);
    const mine = await usage(app, alice.token);
    expect(mine.json.rows).toEqual([{ date: '2026-03-10', calcId: 'bmi', domain: SHOP, loads: 2 }]);
    expect(mine.json.period).toEqual({ period: '2026-03', used: 2, limit: 2 });
    await app.flush();
    const theirs = await usage(app, bob.token);
    expect(theirs.json.rows).toEqual([{ date: '2026-03-10', calcId: 'tip', domain: BLOG, loads: 1 }]);
    expect(theirs.json.total).toBe(1);
  });

  test('rows older than 400 days are pruned by the housekeeping run, not by requests', async () => {
    const { app, clock } = clockedApp('2026-03-10T12:00:00Z');
    using _ = app;
    const { token, id } = await owner(app);
    for (const day of ['2025-02-01', '2025-02-02', '2025-02-03']) await app.usage.tryCount(id, day, 1000, 'bmi', SHOP);
    await app.flush();
    const old = () => usage(app, token, '?from=2025-02-01&to=2025-02-28');
    expect((await old()).json.total).toBe(3);
    // 2026-03-10 minus 400 days is 2025-02-03: older days go.
    clock.now = new Date('2026-03-10T12:00:00Z');
    expect((await old()).json.total).toBe(3);
    expect(await app.retention.run()).toMatchObject({ before: '2025-02-03', loads: 2 });
    expect((await old()).json.rows).toEqual([{ date: '2025-02-03', calcId: 'bmi', domain: SHOP, loads: 1 }]);
  });

  test('deleting an account deletes its per-day rows, stored and pending, and the flush goes on for others', async () => {
    const { app } = clockedApp('2026-03-10T12:00:00Z');
    using _ = app;
    const leaving = await owner(app);
    const staying = await owner(app);
    expect(await load(app, leaving.apiKey)).toBe(200);
    await app.flush();
    expect(await load(app, leaving.apiKey, 'tip')).toBe(200);
    expect(await load(app, staying.apiKey)).toBe(200);
    const deleted = await app.request('DELETE', '/v1/account', {
      token: leaving.token,
      body: { password: leaving.password },
    });
    expect(deleted.status).toBe(200);
    await app.flush();
    const count = (table: string, id: string) => app.count(`${table} WHERE account_id = ?`, id);
    expect(await count('usage_daily', leaving.id)).toBe(0);
    expect(await count('usage', leaving.id)).toBe(0);
    expect(await count('usage_daily', staying.id)).toBe(1);
    expect((await usage(app, staying.token)).json.total).toBe(1);
  });

  test('the route is in the OpenAPI document with its query and answer', async () => {
    using app = testApp();
    const doc = (await app.request('GET', '/openapi.json')).json;
    const get = doc.paths['/v1/usage'].get;
    expect(get.parameters).toEqual([
      expect.objectContaining({ name: 'from', in: 'query', required: false }),
      expect.objectContaining({ name: 'to', in: 'query', required: false }),
    ]);
    const schema = JSON.stringify(get.responses['200']);
    for (const key of ['rows', 'webhook', 'refused', 'skipped', 'total', 'period', 'domain', 'outcome', 'reason'])
      expect(schema).toContain(key);
  });
});

describe("GET /v1/account: the share of the month's quota used and the day it runs out", () => {
  /** Counts `perDay` loads on each of `days` ("YYYY-MM-DD"), as loads on those days would. */
  async function seed(app: TestApp, accountId: string, days: string[], perDay: number) {
    for (const day of days)
      for (let i = 0; i < perDay; i++) await app.usage.tryCount(accountId, day, 1_000_000, 'bmi', SHOP);
  }
  const week = ['2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06', '2026-03-07', '2026-03-08', '2026-03-09'];
  const quota = async (app: TestApp, token: string) => (await app.request('GET', '/v1/account', { token })).json.usage;
  /** A fresh token: one issued when the account was made has expired days later. */
  const signIn = async (app: TestApp, account: { email: string; password: string }) =>
    (await app.request('POST', '/v1/auth/login', { body: { email: account.email, password: account.password } })).json
      .token as string;

  test('percent is floored to 0.1 and runsOutOn follows the last 7 full days, flushed or not', async () => {
    const { app, clock } = clockedApp('2026-03-01T09:00:00Z');
    using _ = app;
    const account = await owner(app);
    const { id, apiKey } = account;
    clock.now = new Date('2026-03-10T12:00:00Z');
    const token = await signIn(app, account);
    await seed(app, id, week, 100);
    await app.flush();
    // 700 used, 100 a day: 300 left is 3 more days.
    expect(await quota(app, token)).toEqual({
      period: '2026-03',
      used: 700,
      limit: 1000,
      percent: 70,
      runsOutOn: '2026-03-13',
    });
    // Today's loads use the quota but are not part of the rate (the day is not over).
    for (let i = 0; i < 99; i++) expect(await load(app, apiKey)).toBe(200);
    expect(await quota(app, token)).toMatchObject({ used: 799, percent: 79.9, runsOutOn: '2026-03-12' });
    await seed(app, id, ['2026-03-09'], 1);
    expect(await quota(app, token)).toMatchObject({ used: 800, percent: 80, runsOutOn: '2026-03-11' });
    await seed(app, id, ['2026-03-10'], 199);
    expect(await quota(app, token)).toMatchObject({ used: 999, percent: 99.9, runsOutOn: '2026-03-10' });
    expect(await load(app, apiKey)).toBe(200);
    expect(await quota(app, token)).toMatchObject({ used: 1000, percent: 100, runsOutOn: null });
    expect(await load(app, apiKey)).toBe(429);
  });

  test('no forecast when the rate would last past the month, or when there is no full day to measure', async () => {
    const { app, clock } = clockedApp('2026-03-01T09:00:00Z');
    using _ = app;
    const slow = await owner(app);
    clock.now = new Date('2026-03-10T12:00:00Z');
    await seed(app, slow.id, week, 10);
    expect(await quota(app, await signIn(app, slow))).toMatchObject({ used: 70, percent: 7, runsOutOn: null });

    // An account two days old is measured over its two full days: 400 a day.
    clock.now = new Date('2026-03-08T10:00:00Z');
    const young = await owner(app);
    clock.now = new Date('2026-03-10T12:00:00Z');
    await seed(app, young.id, ['2026-03-08', '2026-03-09'], 400);
    expect(await quota(app, young.token)).toMatchObject({ used: 800, percent: 80, runsOutOn: '2026-03-10' });

    const fresh = await owner(app);
    await seed(app, fresh.id, ['2026-03-10'], 900);
    expect(await quota(app, fresh.token)).toMatchObject({ used: 900, percent: 90, runsOutOn: null });
  });
});

describe('webhook calls in GET /v1/usage', () => {
  let target: TargetServer;
  let broken: TargetServer;
  beforeAll(() => {
    target = startTarget('127.0.0.2', () => Response.json({ weightKg: 80 }));
    broken = startTarget('127.0.0.2', () => new Response('nope', { status: 500 }));
  });
  afterAll(async () => {
    await target.stop();
    await broken.stop();
  });

  test("a load's call counts by outcome; test-webhook and accounts without a webhook count none", async () => {
    const { app } = clockedApp('2026-03-10T12:00:00Z', { env: { CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.2/32' } });
    using _ = app;
    const extra = await owner(app);
    await app.accounts.setPlan(extra.id, 'extra');
    for (const [calcId, url] of [
      ['bmi', target.url('/ok')],
      ['tip', broken.url('/fail')],
    ] as const) {
      const saved = await app.request('PUT', `/v1/widget-config/${calcId}`, {
        token: extra.token,
        body: { config: { webhook: { url } } },
      });
      expect(saved.status).toBe(200);
    }
    expect(await load(app, extra.apiKey, 'bmi')).toBe(200);
    expect(await load(app, extra.apiKey, 'bmi')).toBe(200);
    expect(await load(app, extra.apiKey, 'tip')).toBe(200);
    expect(await load(app, extra.apiKey, 'loan')).toBe(200);
    const tested = await app.request('POST', '/v1/widget-config/bmi/test-webhook', { token: extra.token });
    expect(tested.json.outcome).toBe('ok');
    const free = await owner(app);
    expect(await load(app, free.apiKey, 'bmi')).toBe(200);

    const expected = [
      { date: '2026-03-10', calcId: 'bmi', outcome: 'ok', calls: 2 },
      { date: '2026-03-10', calcId: 'tip', outcome: 'http_error', calls: 1 },
    ];
    expect((await usage(app, extra.token)).json.webhook).toEqual(expected);
    await app.flush();
    const after = await usage(app, extra.token);
    expect(after.json.webhook).toEqual(expected);
    expect(after.json.total).toBe(4);
    expect((await usage(app, free.token)).json.webhook).toEqual([]);
  });
});
