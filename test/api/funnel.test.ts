import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import { manualClock } from '../helpers/clock.ts';
import { listeningApp } from '../helpers/listening-app.ts';
import { testApp, type TestApp } from '../helpers/test-app.ts';

// Sign-ups hash passwords with argon2: a loaded machine must not turn that into a failure.
setDefaultTimeout(30_000);

const SHOP = 'https://shop.example';
const BLOG = 'https://blog.example';
const TODAY = '2026-11-25';

async function owner(app: TestApp, domains: string[] = [SHOP]) {
  const account = await app.signup();
  for (const domain of domains) await app.request('POST', '/v1/domains', { token: account.token, body: { domain } });
  return account;
}

type Events = { apiKey: string; domain?: string; calcId?: string; events?: unknown };

/** POST /v1/widget/events as a page on `body.domain` sends it (text/plain, with its Origin). */
const report = (app: TestApp, body: Events, origin: string | undefined = body.domain ?? SHOP) =>
  app.request('POST', '/v1/widget/events', {
    body: { domain: SHOP, calcId: 'bmi', events: ['view'], ...body },
    headers: { 'content-type': 'text/plain;charset=UTF-8', ...(origin === undefined ? {} : { origin }) },
  });

const usageOf = async (app: TestApp, token: string, query = '') =>
  (await app.request('GET', `/v1/usage${query}`, { token })).json;

const funnelOf = async (app: TestApp, token: string, query = '') =>
  (await app.request('GET', `/v1/usage/funnel${query}`, { token })).json;

const row = (date: string, calcId: string, domain: string, views = 0, starts = 0, completes = 0, submits = 0) => ({
  date,
  calcId,
  domain,
  views,
  starts,
  completes,
  submits,
});

describe('POST /v1/widget/events', () => {
  test('204 with no body; counted per day, calculator, origin and step; never a load, stored and unflushed alike', async () => {
    using app = testApp({ now: manualClock().now });
    const alice = await owner(app, [SHOP, BLOG]);
    const answer = await report(app, { apiKey: alice.apiKey, events: ['view', 'start'] });
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(answer.headers.get('x-request-id')).toBeTruthy();
    // application/json too, from a server (no Origin header).
    const fromServer = await app.request('POST', '/v1/widget/events', {
      body: { apiKey: alice.apiKey, domain: SHOP, calcId: 'bmi', events: ['view', 'start', 'complete'] },
    });
    expect(fromServer.status).toBe(204);
    expect((await report(app, { apiKey: alice.apiKey, calcId: 'tip' })).status).toBe(204);
    expect((await report(app, { apiKey: alice.apiKey, domain: BLOG, events: ['complete'] })).status).toBe(204);
    const expected = [row(TODAY, 'bmi', BLOG, 0, 0, 1), row(TODAY, 'bmi', SHOP, 2, 2, 1), row(TODAY, 'tip', SHOP, 1)];
    const before = await usageOf(app, alice.token);
    expect(before.funnel).toEqual(expected);
    // Never a load: no quota used, no load rows.
    expect(before.period.used).toBe(0);
    expect(before.rows).toEqual([]);
    await app.flush();
    expect((await usageOf(app, alice.token)).funnel).toEqual(expected);
    expect(await app.count('funnel_daily')).toBe(5);
    expect(await app.count('usage_daily')).toBe(0);
    // Stored and unflushed counts of one row add up.
    await report(app, { apiKey: alice.apiKey, events: ['view'] });
    expect((await usageOf(app, alice.token)).funnel[1]).toEqual(row(TODAY, 'bmi', SHOP, 3, 2, 1));
    // Deleted with the account.
    await app.request('DELETE', '/v1/account', { token: alice.token, body: { password: alice.password } });
    await app.flush();
    expect(await app.count('funnel_daily')).toBe(0);
  });

  test('bad steps and lists are 400 and counted nowhere: unknown, submit, repeated, empty, too many, not a list', async () => {
    using app = testApp({ now: manualClock().now });
    const alice = await owner(app);
    for (const events of [
      ['view', 'click'],
      ['submit'],
      ['view', 'view'],
      [],
      ['view', 'start', 'complete', 'view'],
      'view',
      [{ view: 1 }],
      undefined,
    ]) {
      const answer = await report(app, { apiKey: alice.apiKey, events });
      expect(answer.status).toBe(400);
      expect(answer.json.error.code).toBe('invalid_request');
    }
    await app.flush();
    const usage = await usageOf(app, alice.token);
    expect(usage.funnel).toEqual([]);
    expect(usage.refused).toEqual([]);
    expect(await app.count('funnel_daily')).toBe(0);
  });

  test("the widget routes' checks, in their order; a refused report is counted nowhere, not even as a refusal", async () => {
    using app = testApp({ now: manualClock().now, flags: { 'quota-free': 1 } });
    const alice = await owner(app);
    await app.request('POST', '/v1/widget/register-domain', {
      body: { apiKey: alice.apiKey, domain: 'https://waiting.example' },
    });
    const key = alice.apiKey;
    const expectCode = async (answer: ReturnType<typeof report>, status: number, code: string) => {
      const { json, status: got } = await answer;
      expect([got, json?.error?.code]).toEqual([status, code]);
    };
    await expectCode(report(app, { apiKey: 'pk_unknown' }), 401, 'invalid_api_key');
    await expectCode(report(app, { apiKey: 'not-a-key' }), 401, 'invalid_api_key');
    await expectCode(report(app, { apiKey: key }, 'https://evil.example'), 403, 'origin_mismatch');
    await expectCode(report(app, { apiKey: key, domain: 'https://elsewhere.example' }), 403, 'domain_not_registered');
    await expectCode(report(app, { apiKey: key, domain: 'https://waiting.example' }), 403, 'domain_pending');
    await expectCode(report(app, { apiKey: key, calcId: 'made-up' }), 404, 'calculator_not_found');
    await expectCode(report(app, { apiKey: key, domain: 'https://*.shop.example' }), 400, 'invalid_request');
    await app.flush();
    expect(await app.count('funnel_daily')).toBe(0);
    expect(await app.count('refused_daily')).toBe(0);
    // No quota: with the month's one load used, a page that loaded still reports.
    expect(
      (await app.request('POST', '/v1/widget/load', { body: { apiKey: key, domain: SHOP, calcId: 'bmi' } })).status,
    ).toBe(200);
    expect((await report(app, { apiKey: key, events: ['view', 'start', 'complete'] })).status).toBe(204);
    const usage = await usageOf(app, alice.token);
    expect(usage.period.used).toBe(1);
    expect(usage.funnel).toEqual([row(TODAY, 'bmi', SHOP, 1, 1, 1)]);
  });

  test('exact under concurrency, and across the UTC day boundary by the injected clock', async () => {
    const clock = manualClock(Date.parse('2026-11-25T23:59:59.000Z'));
    // One client sends it all: the per-client limit is off here.
    using app = testApp({ now: clock.now, flags: { 'rate-widget-per-minute': 0, 'rate-widget-per-day': 0 } });
    const alice = await owner(app);
    const burst = (n: number) =>
      Promise.all(
        Array.from({ length: n }, (_, i) =>
          report(app, { apiKey: alice.apiKey, events: i % 3 === 0 ? ['view', 'start', 'complete'] : ['view'] }),
        ),
      );
    // A flush runs in the middle of the first burst: nothing is lost or doubled.
    const [first] = await Promise.all([burst(300), app.flush()]);
    expect(first.every((answer) => answer.status === 204)).toBe(true);
    clock.advance(999);
    await burst(3);
    // 00:00:00.000 UTC is the next day.
    clock.advance(1);
    await burst(30);
    await app.flush();
    const expected = [row(TODAY, 'bmi', SHOP, 303, 101, 101), row('2026-11-26', 'bmi', SHOP, 30, 10, 10)];
    expect((await usageOf(app, alice.token, '?from=2026-11-25&to=2026-11-26')).funnel).toEqual(expected);
    const totals = await funnelOf(app, alice.token, '?from=2026-11-25&to=2026-11-26');
    expect(totals.total).toMatchObject({ views: 333, starts: 111, completes: 111, submits: 0 });
    expect((await funnelOf(app, alice.token, '?from=2026-11-26&to=2026-11-26')).total.views).toBe(30);
  });
});

describe('GET /v1/usage/funnel', () => {
  test('totals and rates in all and per calculator, narrowed by calculator and origin; null rates on zero', async () => {
    using app = testApp({ now: manualClock().now });
    const alice = await owner(app, [SHOP, BLOG]);
    const bob = await owner(app);
    const send = async (times: number, events: string[], calcId = 'bmi', domain = SHOP) => {
      for (let i = 0; i < times; i++)
        expect((await report(app, { apiKey: alice.apiKey, calcId, domain, events })).status).toBe(204);
    };
    await send(4, ['view']);
    await send(2, ['view', 'start']);
    await send(2, ['view', 'start', 'complete']);
    await app.flush();
    await send(2, ['view', 'start', 'complete'], 'bmi', BLOG);
    await send(3, ['view'], 'tip');
    const all = await funnelOf(app, alice.token);
    expect(all).toEqual({
      from: '2026-10-27',
      to: TODAY,
      calcId: null,
      domain: null,
      total: {
        views: 13,
        starts: 6,
        completes: 4,
        submits: 0,
        rates: { viewToStart: 6 / 13, startToComplete: 4 / 6, completeToSubmit: 0 },
      },
      calculators: [
        {
          calcId: 'bmi',
          views: 10,
          starts: 6,
          completes: 4,
          submits: 0,
          rates: { viewToStart: 0.6, startToComplete: 4 / 6, completeToSubmit: 0 },
        },
        {
          calcId: 'tip',
          views: 3,
          starts: 0,
          completes: 0,
          submits: 0,
          rates: { viewToStart: 0, startToComplete: null, completeToSubmit: null },
        },
      ],
    });
    // An origin as owners type it is normalised; a calculator narrows both lists.
    const shop = await funnelOf(app, alice.token, '?domain=https://Shop.Example/&calcId=bmi');
    expect(shop.domain).toBe(SHOP);
    expect(shop.calcId).toBe('bmi');
    expect(shop.total).toMatchObject({ views: 8, starts: 4, completes: 2 });
    expect(shop.calculators.map((c: { calcId: string }) => c.calcId)).toEqual(['bmi']);
    expect((await funnelOf(app, alice.token, `?domain=${BLOG}`)).total).toMatchObject({ views: 2, completes: 2 });
    // Nothing counted: zero totals, every rate null.
    const none = await funnelOf(app, bob.token);
    expect(none.total).toEqual({
      views: 0,
      starts: 0,
      completes: 0,
      submits: 0,
      rates: { viewToStart: null, startToComplete: null, completeToSubmit: null },
    });
    expect(none.calculators).toEqual([]);
    // Bad ranges and origins: 400; no token: 401.
    for (const query of [
      '?from=2026-02-30',
      '?from=2026-11-26&to=2026-11-25',
      '?domain=shop',
      '?domain=https://*.shop.example',
    ])
      expect((await app.request('GET', `/v1/usage/funnel${query}`, { token: alice.token })).status).toBe(400);
    expect((await app.request('GET', '/v1/usage/funnel')).status).toBe(401);
  });
});

describe('flooding the events route', () => {
  test("held by the widget routes' per-client limit, in the same bucket as loads; it costs the owner no quota", async () => {
    await using server = listeningApp({
      now: manualClock().now,
      flags: { 'trust-proxy': '127.0.0.1/32', 'rate-widget-per-minute': 5, 'rate-widget-per-day': 100 },
    });
    const { app } = server;
    const { apiKey, token } = await owner(app);
    const client = '198.51.100.7';
    const body = { apiKey, domain: SHOP, calcId: 'bmi' };
    expect((await server.post('/v1/widget/load', body, { client })).status).toBe(200);
    const answers = [];
    for (let i = 0; i < 20; i++)
      answers.push((await server.post('/v1/widget/events', { ...body, events: ['view'] }, { client })).status);
    expect(answers.filter((status) => status === 204)).toHaveLength(4);
    expect(answers.slice(4).every((status) => status === 429)).toBe(true);
    // The bucket is shared: this address's loads are held too; another address is not.
    expect((await server.post('/v1/widget/load', body, { client })).status).toBe(429);
    expect(
      (await server.post('/v1/widget/events', { ...body, events: ['view'] }, { client: '203.0.113.9' })).status,
    ).toBe(204);
    await app.flush();
    const usage = (await app.request('GET', '/v1/usage', { token })).json;
    expect(usage.funnel).toEqual([row(TODAY, 'bmi', SHOP, 5)]);
    expect(usage.period.used).toBe(1);
    // The held load counts as a refusal (a visitor turned away); the held reports do not.
    for (;;) {
      const refused = (await app.request('GET', '/v1/usage', { token })).json.refused;
      if (refused.length > 0) {
        expect(refused).toEqual([{ date: TODAY, calcId: 'bmi', reason: 'rate_limited', count: 1 }]);
        break;
      }
      await Bun.sleep(5);
    }
  });
});
