import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { PENDING_TTL_MS } from '../../src/domains/status.ts';
import { manualClock } from '../helpers/clock.ts';
import { extraShop, SHOP_ORIGIN as SHOP } from '../helpers/owners.ts';
import { testApp, type TestApp } from '../helpers/test-app.ts';
import { startTarget, type TargetServer } from '../helpers/webhook-target.ts';

// Sign-ups hash passwords with argon2: a loaded machine must not turn that into a failure.
setDefaultTimeout(30_000);

const BLOG = 'https://blog.shop.example';
const ALLOW = { CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.2/32' };
/** 23:59:59 UTC: one second before the next UTC day. */
const LATE = Date.parse('2026-11-25T23:59:59.000Z');
const NO_LIMITS = { loadsPerDay: null, loadsPerDayPerDomain: null, pullsPerSecond: null, registerDomain: true };

async function owner(app: TestApp, domains = [SHOP, BLOG]) {
  const account = await app.signup();
  for (const domain of domains) await app.request('POST', '/v1/domains', { token: account.token, body: { domain } });
  return account;
}

const call = (app: TestApp, route: 'load' | 'verify', apiKey: string, domain = SHOP, calcId = 'bmi') =>
  app.request('POST', `/v1/widget/${route}`, { body: { apiKey, domain, calcId }, headers: { origin: domain } });

const setLimits = (app: TestApp, token: string, body: unknown) =>
  app.request('PUT', '/v1/account/limits', { token, body });

const usage = async (app: TestApp, token: string) => (await app.request('GET', '/v1/usage', { token })).json;

describe('GET and PUT /v1/account/limits', () => {
  test('no cap at first; PUT sets the fields it names, null clears one, the others stay', async () => {
    using app = testApp();
    const { token } = await app.signup();
    const other = await app.signup();
    expect((await app.request('GET', '/v1/account/limits', { token })).json).toEqual({ limits: NO_LIMITS });
    const set = await setLimits(app, token, { loadsPerDay: 5000, pullsPerSecond: 20 });
    expect(set.status).toBe(200);
    expect(set.json.limits).toEqual({ ...NO_LIMITS, loadsPerDay: 5000, pullsPerSecond: 20 });
    const next = await setLimits(app, token, {
      loadsPerDayPerDomain: 500,
      pullsPerSecond: null,
      registerDomain: false,
    });
    const expected = { loadsPerDay: 5000, loadsPerDayPerDomain: 500, pullsPerSecond: null, registerDomain: false };
    expect(next.json.limits).toEqual(expected);
    expect((await app.request('GET', '/v1/account/limits', { token })).json.limits).toEqual(expected);
    // An empty PUT changes nothing; registerDomain null is back to on.
    expect((await setLimits(app, token, {})).json.limits).toEqual(expected);
    expect((await setLimits(app, token, { registerDomain: null })).json.limits.registerDomain).toBe(true);
    expect((await app.request('GET', '/v1/account/limits', { token: other.token })).json.limits).toEqual(NO_LIMITS);
  });

  test.each([
    ['zero', { loadsPerDay: 0 }],
    ['negative', { loadsPerDayPerDomain: -3 }],
    ['a fraction', { pullsPerSecond: 1.5 }],
    ['a string', { loadsPerDay: '100' }],
    ['a boolean cap', { loadsPerDay: true }],
    ['past a 32-bit integer', { loadsPerDay: 2_147_483_648 }],
    ['registerDomain not a boolean', { registerDomain: 'off' }],
    ['a good field with a bad one', { loadsPerDay: 10, pullsPerSecond: 0 }],
    ['not an object', [1, 2]],
  ])('PUT with %s → 400 invalid_request, nothing changed', async (_name, body) => {
    using app = testApp();
    const { token } = await app.signup();
    const res = await setLimits(app, token, body);
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('invalid_request');
    expect((await app.request('GET', '/v1/account/limits', { token })).json.limits).toEqual(NO_LIMITS);
  });

  test('both routes need a token', async () => {
    using app = testApp();
    expect((await app.request('GET', '/v1/account/limits')).status).toBe(401);
    const res = await app.request('PUT', '/v1/account/limits', { body: { loadsPerDay: 1 } });
    expect(res.status).toBe(401);
    expect(res.json.error.code).toBe('unauthorized');
  });
});

describe('loadsPerDay and loadsPerDayPerDomain', () => {
  test('loadsPerDay: exactly N loads a UTC day, then 429 cap_reached on load and verify, counted only as refusals', async () => {
    const clock = manualClock(LATE);
    using app = testApp({ now: clock.now });
    const { token, apiKey } = await owner(app);
    await setLimits(app, token, { loadsPerDay: 3 });
    for (const domain of [SHOP, BLOG, SHOP]) expect((await call(app, 'load', apiKey, domain)).status).toBe(200);
    const refused = await call(app, 'load', apiKey, BLOG);
    expect(refused.status).toBe(429);
    expect(refused.json.error).toEqual({
      code: 'cap_reached',
      message: "The owner of this account allows 3 widget loads a day; today's are used.",
    });
    expect((await call(app, 'verify', apiKey)).json.error.code).toBe('cap_reached');
    await app.flush();
    expect((await call(app, 'load', apiKey, SHOP, 'tip')).status).toBe(429);
    const report = await usage(app, token);
    expect(report.total).toBe(3);
    expect(report.period.used).toBe(3);
    expect(report.refused).toEqual([
      { date: '2026-11-25', calcId: 'bmi', reason: 'cap_reached', count: 2 },
      { date: '2026-11-25', calcId: 'tip', reason: 'cap_reached', count: 1 },
    ]);
    // The next UTC day allows N again.
    clock.advance(1000);
    for (let i = 0; i < 3; i++) expect((await call(app, 'load', apiKey)).status).toBe(200);
    expect((await call(app, 'load', apiKey)).status).toBe(429);
    expect((await usage(app, token)).period.used).toBe(6);
  });

  test('loadsPerDayPerDomain: N a day from each origin, the others unaffected; next day again', async () => {
    const clock = manualClock(LATE);
    using app = testApp({ now: clock.now });
    const { token, apiKey } = await owner(app);
    await setLimits(app, token, { loadsPerDayPerDomain: 2 });
    for (let i = 0; i < 2; i++) expect((await call(app, 'load', apiKey, SHOP)).status).toBe(200);
    const refused = await call(app, 'load', apiKey, SHOP, 'tip');
    expect(refused.status).toBe(429);
    expect(refused.json.error.message).toBe(
      `The owner of this account allows 2 widget loads a day from ${SHOP}; today's are used.`,
    );
    for (let i = 0; i < 2; i++) expect((await call(app, 'load', apiKey, BLOG)).status).toBe(200);
    expect((await call(app, 'load', apiKey, BLOG)).status).toBe(429);
    expect((await call(app, 'verify', apiKey, SHOP)).status).toBe(429);
    clock.advance(1000);
    expect((await call(app, 'load', apiKey, SHOP)).status).toBe(200);
    const report = await usage(app, token);
    expect(report.total).toBe(5);
    expect(report.refused).toEqual([
      { date: '2026-11-25', calcId: 'bmi', reason: 'cap_reached', count: 2 },
      { date: '2026-11-25', calcId: 'tip', reason: 'cap_reached', count: 1 },
    ]);
  });

  test("a cap set during the day counts the day's loads so far, written and not yet written", async () => {
    using app = testApp({ now: manualClock().now });
    const { token, apiKey } = await owner(app);
    expect((await call(app, 'load', apiKey, SHOP)).status).toBe(200);
    await app.flush();
    expect((await call(app, 'load', apiKey, SHOP)).status).toBe(200);
    expect((await call(app, 'load', apiKey, BLOG)).status).toBe(200);
    await setLimits(app, token, { loadsPerDay: 4, loadsPerDayPerDomain: 2 });
    expect((await call(app, 'load', apiKey, SHOP)).json.error.code).toBe('cap_reached');
    expect((await call(app, 'load', apiKey, BLOG)).status).toBe(200);
    expect((await call(app, 'load', apiKey, 'https://new.shop.example')).status).toBe(403);
    await setLimits(app, token, { loadsPerDayPerDomain: null });
    expect((await call(app, 'load', apiKey, SHOP)).json.error.code).toBe('cap_reached');
    // Clearing the caps lets loads through again at once.
    await setLimits(app, token, { loadsPerDay: null });
    expect((await call(app, 'load', apiKey, SHOP)).status).toBe(200);
    expect((await usage(app, token)).total).toBe(5);
  });

  test('the quota comes first: at the end of the month a load answers quota_exceeded, not cap_reached', async () => {
    using app = testApp({ now: manualClock().now, flags: { 'quota-free': 2 } });
    const { token, apiKey } = await owner(app);
    await setLimits(app, token, { loadsPerDay: 2 });
    for (let i = 0; i < 2; i++) expect((await call(app, 'load', apiKey)).status).toBe(200);
    expect((await call(app, 'load', apiKey)).json.error.code).toBe('quota_exceeded');
    expect((await usage(app, token)).refused).toEqual([
      { date: '2026-11-25', calcId: 'bmi', reason: 'quota_exceeded', count: 1 },
    ]);
  });
});

describe('pullsPerSecond and skipped pulls', () => {
  let target: TargetServer;
  beforeAll(() => {
    target = startTarget('127.0.0.2', () => Response.json({ weightKg: 80 }));
  });
  afterAll(() => target.stop());

  test('pulls over the cap are skipped: the load answers its defaults, no call, reported as skipped', async () => {
    const clock = manualClock();
    using app = testApp({ env: ALLOW, now: clock.now });
    const { token, apiKey } = await extraShop(app, target.url('/pps'));
    await setLimits(app, token, { pullsPerSecond: 2 });
    const before = target.hits;
    const values = [];
    for (let i = 0; i < 5; i++) {
      const res = await call(app, 'load', apiKey);
      expect(res.status).toBe(200);
      values.push(res.json.values);
    }
    expect(values).toEqual([{ weightKg: 80 }, { weightKg: 80 }, {}, {}, {}]);
    expect(target.hits).toBe(before + 2);
    expect((await app.request('GET', '/v1/widget-config/bmi', { token })).json.webhookStatus.outcome).toBe('capped');
    // The next second of the clock allows 2 more.
    clock.advance(1000);
    for (let i = 0; i < 3; i++) await call(app, 'load', apiKey);
    expect(target.hits).toBe(before + 4);
    // The owner's own test is not a load: never capped.
    expect((await app.request('POST', '/v1/widget-config/bmi/test-webhook', { token })).json.outcome).toBe('ok');
    expect(target.hits).toBe(before + 5);
    const expected = {
      total: 8,
      webhook: [{ date: '2026-11-25', calcId: 'bmi', outcome: 'ok', calls: 4 }],
      skipped: [{ date: '2026-11-25', calcId: 'bmi', reason: 'capped', count: 4 }],
    };
    expect(await usage(app, token)).toMatchObject(expected);
    await app.flush();
    expect(await usage(app, token)).toMatchObject(expected);
  });

  test('a load past a daily cap makes no pull', async () => {
    using app = testApp({ env: ALLOW, now: manualClock().now });
    const { token, apiKey } = await extraShop(app, target.url('/capped-load'));
    await setLimits(app, token, { loadsPerDay: 1 });
    const before = target.hits;
    expect((await call(app, 'load', apiKey)).status).toBe(200);
    expect((await call(app, 'load', apiKey)).status).toBe(429);
    expect(target.hits).toBe(before + 1);
    expect(await usage(app, token)).toMatchObject({
      webhook: [{ date: '2026-11-25', calcId: 'bmi', outcome: 'ok', calls: 1 }],
      skipped: [],
    });
  });
});

describe('register-domain switch and pending expiry', () => {
  const ask = (app: TestApp, apiKey: string, domain: string) =>
    app.request('POST', '/v1/widget/register-domain', { body: { apiKey, domain } });
  const listed = async (app: TestApp, token: string) =>
    (await app.request('GET', '/v1/domains', { token })).json.domains.map((d: { domain: string }) => d.domain);

  test('registerDomain false: 403 register_domain_disabled and nothing stored; back on, it records again', async () => {
    using app = testApp();
    const { token, apiKey } = await app.signup();
    await setLimits(app, token, { registerDomain: false });
    const refused = await ask(app, apiKey, 'https://blog.example');
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe('register_domain_disabled');
    expect(await listed(app, token)).toEqual([]);
    // A wrong key is still 401 first (the documented order).
    expect((await ask(app, 'pk_unknown', 'https://blog.example')).status).toBe(401);
    await setLimits(app, token, { registerDomain: true });
    expect((await ask(app, apiKey, 'https://blog.example')).status).toBe(202);
    expect(await listed(app, token)).toEqual(['https://blog.example']);
  });

  test('a pending request expires after 7 days: not listed, not counted, unregistered, and asked for anew', async () => {
    const clock = manualClock();
    using app = testApp({ now: clock.now });
    const account = await app.signup();
    const { apiKey } = account;
    let { token } = account;
    /** A fresh token: the first one has expired 7 days later. */
    const signIn = async () =>
      (await app.request('POST', '/v1/auth/login', { body: { email: account.email, password: account.password } })).json
        .token as string;
    const first = await ask(app, apiKey, 'https://blog.example');
    expect(first.status).toBe(202);
    // 19 more fill the cap of 20 pending requests.
    for (let i = 0; i < 19; i++) expect((await ask(app, apiKey, `https://p${i}.example`)).status).toBe(202);
    expect((await ask(app, apiKey, 'https://full.example')).json.error.code).toBe('too_many_pending_domains');
    clock.advance(PENDING_TTL_MS - 1000);
    expect(await listed(app, token)).toHaveLength(20);
    expect((await call(app, 'verify', apiKey, 'https://blog.example')).json.error.code).toBe('domain_pending');
    clock.advance(1000);
    token = await signIn();
    expect(await listed(app, token)).toEqual([]);
    expect((await call(app, 'verify', apiKey, 'https://blog.example')).json.error.code).toBe('domain_not_registered');
    expect(
      (await app.request('DELETE', '/v1/domains', { token, body: { domain: 'https://blog.example' } })).status,
    ).toBe(404);
    // Asking again makes a new request, dated now; the expired ones no longer count towards the cap.
    const again = await ask(app, apiKey, 'https://blog.example');
    expect(again.status).toBe(202);
    expect(again.json.domain.createdAt).toBe(clock.now().toISOString());
    expect((await ask(app, apiKey, 'https://full.example')).status).toBe(202);
    expect(await listed(app, token)).toEqual(['https://blog.example', 'https://full.example']);
    // The housekeeping run deletes the 19 that expired and were not asked for again.
    expect((await app.retention.run())?.pendingDomains).toBe(19);
    // The owner may still add an origin whose request expired: it is active from now.
    clock.advance(PENDING_TTL_MS);
    token = await signIn();
    const added = await app.request('POST', '/v1/domains', { token, body: { domain: 'https://blog.example' } });
    expect(added.status).toBe(201);
    expect(added.json.domain).toEqual({
      domain: 'https://blog.example',
      status: 'active',
      createdAt: clock.now().toISOString(),
    });
  });
});
