import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import { manualClock } from '../helpers/clock.ts';
import { listeningApp } from '../helpers/listening-app.ts';
import { testApp, type TestApp } from '../helpers/test-app.ts';

// Sign-ups hash passwords with argon2: a loaded machine must not turn that into a failure.
setDefaultTimeout(30_000);

const SHOP = 'https://shop.example';
const TODAY = '2026-11-25';

async function owner(app: TestApp) {
  const account = await app.signup();
  await app.request('POST', '/v1/domains', { token: account.token, body: { domain: SHOP } });
  return account;
}

const call = (
  app: TestApp,
  route: 'load' | 'verify',
  body: { apiKey: string; domain?: string; calcId?: string },
  origin: string | undefined = body.domain ?? SHOP,
) =>
  app.request('POST', `/v1/widget/${route}`, {
    body: { domain: SHOP, calcId: 'bmi', ...body },
    headers: origin === undefined ? {} : { origin },
  });

const refusedOf = async (app: TestApp, token: string) =>
  (await app.request('GET', '/v1/usage', { token })).json.refused;

describe('refused widget calls in GET /v1/usage', () => {
  test('counted per day, calculator and reason, for the key’s owner only; stored and unflushed alike', async () => {
    const clock = manualClock();
    using app = testApp({ now: clock.now, flags: { 'quota-free': 1 } });
    const alice = await owner(app);
    const bob = await owner(app);
    await app.request('POST', '/v1/widget/register-domain', {
      body: { apiKey: alice.apiKey, domain: 'https://waiting.example' },
    });
    const key = alice.apiKey;
    const expectCode = async (res: Promise<{ json: { error?: { code: string } } }>, code: string) =>
      expect((await res).json.error?.code).toBe(code);
    await expectCode(call(app, 'load', { apiKey: key, domain: 'https://elsewhere.example' }), 'domain_not_registered');
    await expectCode(
      call(app, 'verify', { apiKey: key, domain: 'https://elsewhere.example', calcId: 'tip' }),
      'domain_not_registered',
    );
    await expectCode(call(app, 'load', { apiKey: key, domain: 'https://waiting.example' }), 'domain_pending');
    await expectCode(call(app, 'load', { apiKey: key }, 'https://evil.example'), 'origin_mismatch');
    expect((await call(app, 'load', { apiKey: key })).status).toBe(200);
    await expectCode(call(app, 'load', { apiKey: key }), 'quota_exceeded');
    await app.flush();
    await expectCode(call(app, 'verify', { apiKey: key }), 'quota_exceeded');
    // Not counted: a made-up calculator (the id is the caller's), an unknown key, a bad body.
    await expectCode(call(app, 'load', { apiKey: key, calcId: 'made-up' }, 'https://evil.example'), 'origin_mismatch');
    await expectCode(call(app, 'load', { apiKey: key, calcId: 'made-up' }), 'calculator_not_found');
    await expectCode(call(app, 'load', { apiKey: 'pk_unknown' }), 'invalid_api_key');
    expect((await app.request('POST', '/v1/widget/load', { body: { apiKey: key } })).status).toBe(400);

    const expected = [
      { date: TODAY, calcId: 'bmi', reason: 'domain_not_registered', count: 1 },
      { date: TODAY, calcId: 'bmi', reason: 'domain_pending', count: 1 },
      { date: TODAY, calcId: 'bmi', reason: 'origin_mismatch', count: 1 },
      { date: TODAY, calcId: 'bmi', reason: 'quota_exceeded', count: 2 },
      { date: TODAY, calcId: 'tip', reason: 'domain_not_registered', count: 1 },
    ];
    expect(await refusedOf(app, alice.token)).toEqual(expected);
    await app.flush();
    expect(await refusedOf(app, alice.token)).toEqual(expected);
    expect(await app.count('refused_daily')).toBe(5);
    expect(await refusedOf(app, bob.token)).toEqual([]);
    // Loads and the month's count are untouched by refusals.
    const report = (await app.request('GET', '/v1/usage', { token: alice.token })).json;
    expect(report.total).toBe(1);
    expect(report.period.used).toBe(1);
    // A range holds only its days; refusals are deleted with the account.
    clock.advance(86_400_000);
    const tomorrow = await app.request('GET', '/v1/usage?from=2026-11-26&to=2026-11-26', { token: alice.token });
    expect(tomorrow.json.refused).toEqual([]);
    await app.request('DELETE', '/v1/account', { token: alice.token, body: { password: alice.password } });
    expect(await app.count('refused_daily')).toBe(0);
  });

  test('rate_limited: refusals before the key is looked up still reach its owner, once per call', async () => {
    await using server = listeningApp({
      now: manualClock().now,
      flags: { 'trust-proxy': '127.0.0.1/32', 'rate-widget-per-minute': 2, 'rate-widget-per-day': 100 },
    });
    const { app } = server;
    const { apiKey, token } = await owner(app);
    const client = '198.51.100.7';
    const body = { apiKey, domain: SHOP, calcId: 'bmi' };
    for (let i = 0; i < 2; i++) expect((await server.post('/v1/widget/load', body, { client })).status).toBe(200);
    for (const calcId of ['bmi', 'bmi', 'bmi', 'tip', 'made-up']) {
      const res = await server.post('/v1/widget/load', { ...body, calcId }, { client });
      expect(res.json.error.code).toBe('rate_limited');
    }
    // An unknown key under the same limit counts nowhere.
    for (let i = 0; i < 3; i++) await server.post('/v1/widget/load', { ...body, apiKey: 'pk_unknown' }, { client });
    const expected = [
      { date: TODAY, calcId: 'bmi', reason: 'rate_limited', count: 3 },
      { date: TODAY, calcId: 'tip', reason: 'rate_limited', count: 1 },
    ];
    // The key is looked up after the answer: wait for the counts to arrive.
    while (JSON.stringify(await refusedOf(app, token)) !== JSON.stringify(expected)) await Bun.sleep(5);
    await app.flush();
    expect(await refusedOf(app, token)).toEqual(expected);
    expect(await app.count('refused_daily')).toBe(2);
  });
});
