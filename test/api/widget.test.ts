import { describe, expect, test } from 'bun:test';
import { testApp, type TestApp } from '../helpers/test-app.ts';

const ORIGIN = 'https://shop.example';

async function owner(app: TestApp, domains: string[] = [ORIGIN]) {
  const account = await app.signup();
  for (const domain of domains) await app.request('POST', '/v1/domains', { token: account.token, body: { domain } });
  return account;
}

describe.each(['verify', 'load'])('POST /v1/widget/%s checks in the documented order', (route) => {
  const path = `/v1/widget/${route}`;

  test('body shape → key → Origin → domain → calculator → quota', async () => {
    using app = testApp({ flags: { 'quota-free': 0 } });
    const { apiKey, token } = await owner(app);
    await app.request('POST', '/v1/widget/register-domain', { body: { apiKey, domain: 'https://pending.example' } });
    void token;
    const cases: [string, unknown, Record<string, string>, number, string][] = [
      ['missing fields', { apiKey }, {}, 400, 'invalid_request'],
      [
        'wrong types (even with a bad key)',
        { apiKey: 'pk_bad', domain: ORIGIN, calcId: 5 },
        {},
        400,
        'invalid_request',
      ],
      [
        'malformed domain (even with a bad key)',
        { apiKey: 'pk_bad', domain: 'not a url', calcId: 'bmi' },
        {},
        400,
        'invalid_request',
      ],
      [
        'bad key (even with a mismatching Origin)',
        { apiKey: 'pk_bad', domain: ORIGIN, calcId: 'bmi' },
        { origin: 'https://evil.example' },
        401,
        'invalid_api_key',
      ],
      [
        'Origin header differs from domain',
        { apiKey, domain: ORIGIN, calcId: 'bmi' },
        { origin: 'https://evil.example' },
        403,
        'origin_mismatch',
      ],
      [
        'Origin "null" (sandboxed frame)',
        { apiKey, domain: ORIGIN, calcId: 'bmi' },
        { origin: 'null' },
        403,
        'origin_mismatch',
      ],
      [
        'unregistered domain (even with an unknown calculator)',
        { apiKey, domain: 'https://other.example', calcId: 'nope' },
        {},
        403,
        'domain_not_registered',
      ],
      ['pending domain', { apiKey, domain: 'https://pending.example', calcId: 'bmi' }, {}, 403, 'domain_pending'],
      [
        'unknown calculator (even over quota)',
        { apiKey, domain: ORIGIN, calcId: 'nope' },
        {},
        404,
        'calculator_not_found',
      ],
      ['quota exhausted', { apiKey, domain: ORIGIN, calcId: 'bmi' }, { origin: ORIGIN }, 429, 'quota_exceeded'],
    ];
    for (const [name, body, headers, status, code] of cases) {
      const res = await app.request('POST', path, { body, headers });
      expect({ name, status: res.status, code: res.json?.error?.code }).toEqual({ name, status, code });
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
    }
  });

  test('accepts text/plain JSON (a CORS simple request) and answers any origin', async () => {
    using app = testApp();
    const { apiKey } = await owner(app);
    const res = await app.request('POST', path, {
      body: JSON.stringify({ apiKey, domain: ORIGIN, calcId: 'bmi' }),
      headers: { 'content-type': 'text/plain;charset=UTF-8', origin: ORIGIN },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.json.calcId).toBe('bmi');
  });

  test('answers the CORS preflight for any origin', async () => {
    using app = testApp();
    const res = await app.request('OPTIONS', path, {
      headers: { origin: 'https://anywhere.example', 'access-control-request-method': 'POST' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
  });
});

describe('load and verify answers', () => {
  test('verify → {ok, calcId} and does not count; load → definition and values and counts one', async () => {
    using app = testApp();
    const { apiKey, token } = await owner(app);
    const body = { apiKey, domain: ORIGIN, calcId: 'bmi' };
    const verify = await app.request('POST', '/v1/widget/verify', { body });
    expect(verify.json).toEqual({ ok: true, calcId: 'bmi' });
    expect((await app.request('GET', '/v1/account', { token })).json.usage.used).toBe(0);

    const load = await app.request('POST', '/v1/widget/load', { body, headers: { origin: ORIGIN } });
    expect(load.status).toBe(200);
    expect(load.json.calcId).toBe('bmi');
    expect(load.json.values).toEqual({});
    const keys = load.json.calculator.fields.map((f: { key: string }) => f.key).sort();
    expect(keys).toEqual(['height', 'heightCm', 'weight', 'weightKg']);
    expect(load.json.calculator.compute).toBeUndefined();
    expect((await app.request('GET', '/v1/account', { token })).json.usage.used).toBe(1);
  });

  test('refused loads do not count; the quota stops at exactly the limit', async () => {
    using app = testApp({ flags: { 'quota-free': 3 } });
    const { apiKey, token } = await owner(app);
    await app.request('POST', '/v1/widget/load', { body: { apiKey, domain: 'https://other.example', calcId: 'bmi' } });
    await app.request('POST', '/v1/widget/load', { body: { apiKey, domain: ORIGIN, calcId: 'nope' } });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push(
        (await app.request('POST', '/v1/widget/load', { body: { apiKey, domain: ORIGIN, calcId: 'bmi' } })).status,
      );
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect((await app.request('GET', '/v1/account', { token })).json.usage).toMatchObject({ used: 3, limit: 3 });
    const verify = await app.request('POST', '/v1/widget/verify', { body: { apiKey, domain: ORIGIN, calcId: 'bmi' } });
    expect(verify.json.error.code).toBe('quota_exceeded');
  });

  test('concurrent loads never exceed the quota', async () => {
    using app = testApp({ flags: { 'quota-free': 25 } });
    const { apiKey, token } = await owner(app);
    const results = await Promise.all(
      Array.from({ length: 60 }, () =>
        app.request('POST', '/v1/widget/load', { body: { apiKey, domain: ORIGIN, calcId: 'bmi' } }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(25);
    expect(results.filter((r) => r.status === 429)).toHaveLength(35);
    await app.usage.flush();
    expect((await app.request('GET', '/v1/account', { token })).json.usage.used).toBe(25);
  });

  test('usage is per calendar month in UTC: a new month starts from zero', async () => {
    let now = new Date('2026-01-31T23:59:59Z');
    using app = testApp({ flags: { 'quota-free': 1 }, now: () => now });
    const { apiKey } = await owner(app);
    const load = () => app.request('POST', '/v1/widget/load', { body: { apiKey, domain: ORIGIN, calcId: 'bmi' } });
    expect((await load()).status).toBe(200);
    expect((await load()).status).toBe(429);
    now = new Date('2026-02-01T00:00:00Z');
    expect((await load()).status).toBe(200);
    await app.usage.flush();
    const rows = await app.sql('SELECT period, CAST(loads AS INTEGER) AS loads FROM usage ORDER BY period');
    expect(rows).toEqual([
      { period: '2026-01', loads: 1 },
      { period: '2026-02', loads: 1 },
    ]);
  });

  test('counts survive a flush and a restart on the same data directory', async () => {
    using app = testApp();
    const { apiKey, token } = await owner(app);
    for (let i = 0; i < 4; i++)
      await app.request('POST', '/v1/widget/load', { body: { apiKey, domain: ORIGIN, calcId: 'bmi' } });
    await app.usage.flush();
    const [stored] = await app.sql('SELECT loads FROM usage');
    expect(Number(stored?.loads)).toBe(4);
    expect((await app.request('GET', '/v1/account', { token })).json.usage.used).toBe(4);
  });

  test('a plan upgrade raises the quota on the next load', async () => {
    using app = testApp({ flags: { 'quota-free': 1, 'quota-base': 2 } });
    const { apiKey, id } = await owner(app);
    const load = () => app.request('POST', '/v1/widget/load', { body: { apiKey, domain: ORIGIN, calcId: 'bmi' } });
    expect((await load()).status).toBe(200);
    expect((await load()).status).toBe(429);
    await app.accounts.setPlan(id, 'base');
    expect((await load()).status).toBe(200);
  });
});

describe('public catalogue', () => {
  test('GET /v1/calculators lists bmi with its four keys; GET one; unknown → 404; malformed → 400', async () => {
    using app = testApp();
    const list = await app.request('GET', '/v1/calculators');
    expect(list.status).toBe(200);
    expect(list.json.calculators.length).toBeGreaterThanOrEqual(12);
    const bmi = list.json.calculators.find((c: { id: string }) => c.id === 'bmi');
    expect(bmi.unitSystems).toEqual(['metric', 'imperial']);
    const one = await app.request('GET', '/v1/calculators/bmi');
    expect(one.json.calculator).toEqual(bmi);
    expect((await app.request('GET', '/v1/calculators/nope')).json.error.code).toBe('calculator_not_found');
    expect((await app.request('GET', '/v1/calculators/__proto__')).status).toBe(400);
  });
});

describe("verify and load over a real socket (served by Bun's router, not Elysia)", () => {
  test('the same answers, headers and errors as everywhere else; other methods fall through to Elysia', async () => {
    using app = testApp();
    const { apiKey } = await owner(app);
    app.app.listen({ hostname: '127.0.0.1', port: 0 });
    try {
      const base = `http://127.0.0.1:${app.app.server?.port}`;
      const body = JSON.stringify({ apiKey, domain: ORIGIN, calcId: 'bmi' });
      for (const path of ['/v1/widget/verify', '/v1/widget/load']) {
        const res = await fetch(`${base}${path}`, {
          method: 'POST',
          body,
          headers: { 'content-type': 'text/plain;charset=UTF-8', origin: ORIGIN, 'x-request-id': 'proxy-request-0001' },
        });
        expect({ path, status: res.status }).toEqual({ path, status: 200 });
        expect(res.headers.get('access-control-allow-origin')).toBe('*');
        expect(res.headers.get('content-type')).toBe('application/json');
        expect(res.headers.get('x-request-id')).toBe('proxy-request-0001');
        const viaHandle = await app.request('POST', path, { body: JSON.parse(body) });
        expect(await res.json()).toEqual(viaHandle.json);
      }

      const invalid = await fetch(`${base}/v1/widget/load`, {
        method: 'POST',
        body: JSON.stringify({ apiKey, domain: ORIGIN, calcId: 5 }),
        headers: { 'content-type': 'application/json' },
      });
      expect(invalid.status).toBe(400);
      expect(invalid.headers.get('x-request-id')).toMatch(/^[0-9a-f]{12}-[0-9a-z]+$/);
      expect(await invalid.json()).toEqual({
        error: {
          code: 'invalid_request',
          message: 'calcId: Expected string.',
          details: [{ field: 'calcId', message: 'Expected string' }],
        },
      });
      const tooLarge = await fetch(`${base}/v1/widget/verify`, {
        method: 'POST',
        body: 'x'.repeat(70_000),
        headers: { 'content-type': 'application/json' },
      });
      expect(tooLarge.status).toBe(413);
      expect((await tooLarge.json()).error.code).toBe('payload_too_large');

      const preflight = await fetch(`${base}/v1/widget/load`, {
        method: 'OPTIONS',
        headers: { origin: 'https://anywhere.example', 'access-control-request-method': 'POST' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
      const get = await fetch(`${base}/v1/widget/load`);
      expect(get.status).toBe(404);
      expect((await get.json()).error.code).toBe('not_found');

      const lines = (
        await app.requestLines((l) => l.requestId === 'proxy-request-0001' && l.path === '/v1/widget/load')
      ).filter((l) => l.path.startsWith('/v1/widget/'));
      expect(
        lines.filter((l) => l.requestId === 'proxy-request-0001').map((l) => `${l.method} ${l.path} ${l.status}`),
      ).toEqual(['POST /v1/widget/verify 200', 'POST /v1/widget/load 200']);
    } finally {
      await app.app.stop(true);
    }
  });
});
