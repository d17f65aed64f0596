import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTarget, startTargetPair, type TargetServer } from '../helpers/webhook-target.ts';
import { extraShop, SHOP_ORIGIN as ORIGIN } from '../helpers/owners.ts';
import { testApp, type TestApp } from '../helpers/test-app.ts';

const ALLOW = { CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.2/32' };
const SECRET = 'Bearer pull-secret-4f1c9e';

const load = (app: TestApp, apiKey: string) =>
  app.request('POST', '/v1/widget/load', {
    body: { apiKey, domain: ORIGIN, calcId: 'bmi' },
    headers: { origin: ORIGIN },
  });

let good: TargetServer;
beforeAll(() => {
  good = startTarget('127.0.0.2', () =>
    Response.json({ weight: 154, heightCm: 175, __proto__: { polluted: true }, shoeSize: 44 }),
  );
});
afterAll(() => good.stop());

describe('the pull on every widget load', () => {
  test('Extra with a webhook: every valid key passes through to values, headers arrive, nothing else does', async () => {
    using app = testApp({ env: ALLOW });
    const { apiKey } = await extraShop(app, good.url('/prefill?visitor=1'), { Authorization: SECRET });
    const before = good.hits;
    const res = await load(app, apiKey);
    expect(res.status).toBe(200);
    expect(res.json.values).toEqual({ weight: 154, heightCm: 175 });
    expect(good.hits).toBe(before + 1);
    const received = good.requests.at(-1);
    expect(received).toMatchObject({ method: 'GET', path: '/prefill?visitor=1' });
    expect(received?.headers.authorization).toBe(SECRET);
    expect(received?.headers.accept).toBe('application/json');
    expect(received?.headers['user-agent']).toMatch(/^calc-webhook\//);
    expect(received?.headers.cookie).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // Every load calls again: nothing is cached.
    await load(app, apiKey);
    expect(good.hits).toBe(before + 2);
  });

  test('a downgrade between save and load stops the calls at once; an upgrade resumes them', async () => {
    using app = testApp({ env: ALLOW });
    const owner = await extraShop(app, good.url('/plan'));
    await app.accounts.setPlan(owner.id, 'base');
    const before = good.hits;
    const res = await load(app, owner.apiKey);
    expect(res.status).toBe(200);
    expect(res.json.values).toEqual({});
    expect(good.hits).toBe(before);
    await app.accounts.setPlan(owner.id, 'extra');
    expect((await load(app, owner.apiKey)).json.values).toEqual({ weight: 154, heightCm: 175 });
    expect(good.hits).toBe(before + 1);
  });

  test('DNS rebinding: public at save, private at load → no call to the private address', async () => {
    const [allowed, internal] = startTargetPair(
      { hostname: '127.0.0.2', handler: () => Response.json({ weightKg: 70 }) },
      { hostname: '127.0.0.1', handler: () => Response.json({ weightKg: 99 }) },
    );
    try {
      let lookups = 0;
      using app = testApp({ env: ALLOW, resolve: async () => (++lookups === 1 ? ['127.0.0.2'] : ['127.0.0.1']) });
      const { apiKey } = await extraShop(app, `http://api.shop.example:${allowed.port}/prefill`);
      const res = await load(app, apiKey);
      expect(res.status).toBe(200);
      expect(res.json.values).toEqual({});
      expect(internal.hits).toBe(0);
      expect(lookups).toBe(2);
    } finally {
      await allowed.stop();
      await internal.stop();
    }
  });

  test('the pull connects to the checked address with the original Host header', async () => {
    using app = testApp({ env: ALLOW, resolve: async () => ['127.0.0.2'] });
    const { apiKey } = await extraShop(app, `http://api.shop.example:${good.port}/named`);
    expect((await load(app, apiKey)).json.values).toEqual({ weight: 154, heightCm: 175 });
    expect(good.requests.at(-1)?.headers.host).toBe(`api.shop.example:${good.port}`);
  });

  test.each([
    ['a non-2xx status', () => new Response('nope', { status: 500 }), 'http_error'],
    ['a redirect', () => Response.redirect('http://127.0.0.1/steal', 302), 'redirect'],
    [
      'invalid JSON',
      () => new Response('{not json', { headers: { 'content-type': 'application/json' } }),
      'invalid_json',
    ],
    ['an array', () => Response.json([{ weightKg: 80 }]), 'not_object'],
    ['null', () => Response.json(null), 'not_object'],
    ['a string', () => Response.json('x'), 'not_object'],
    ['a number', () => Response.json(1), 'not_object'],
    ['a huge body', () => new Response('x'.repeat(300 * 1024)), 'too_large'],
  ] as const)('%s → 200 with defaults, silently; outcome recorded for the owner', async (_name, handler, outcome) => {
    const target = startTarget('127.0.0.2', handler);
    try {
      using app = testApp({ env: ALLOW });
      const { apiKey, token } = await extraShop(app, target.url('/f'), { Authorization: SECRET });
      const res = await load(app, apiKey);
      expect(res.status).toBe(200);
      expect(res.json.values).toEqual({});
      expect(res.json.error).toBeUndefined();
      expect((await app.request('GET', '/v1/widget-config/bmi', { token })).json.webhookStatus.outcome).toBe(outcome);
      expect((await app.request('GET', '/v1/account', { token })).json.usage.used).toBe(1);
    } finally {
      await target.stop();
    }
  });

  test('a webhook slower than the budget → defaults at the budget, not later', async () => {
    const slow = startTarget('127.0.0.2', async () => {
      await Bun.sleep(3000);
      return Response.json({ weightKg: 80 });
    });
    try {
      using app = testApp({ env: ALLOW, webhookTimeoutMs: 300 });
      const { apiKey, token } = await extraShop(app, slow.url('/slow'));
      const started = performance.now();
      const res = await load(app, apiKey);
      const elapsed = performance.now() - started;
      expect(res.json.values).toEqual({});
      expect(elapsed).toBeGreaterThanOrEqual(290);
      expect(elapsed).toBeLessThan(1500);
      expect((await app.request('GET', '/v1/widget-config/bmi', { token })).json.webhookStatus.outcome).toBe('timeout');
    } finally {
      await slow.stop();
    }
  });

  test('the URL is checked again on every fetch: loopback outside the allowlist is never called', async () => {
    const internal = startTarget('127.0.0.1', () => Response.json({ weightKg: 99 }));
    try {
      using app = testApp({ env: ALLOW });
      const { apiKey, id } = await extraShop(app, good.url('/ok'));
      // Simulate a config written before a rule existed (or by hand): the fetch still refuses it.
      await app.sql('UPDATE widget_configs SET webhook_url = ? WHERE account_id = ?', internal.url('/x'), id);
      const res = await load(app, apiKey);
      expect(res.json.values).toEqual({});
      expect(internal.hits).toBe(0);
    } finally {
      await internal.stop();
    }
  });

  test('at most 8 pulls in flight per account: the 9th load gets defaults at once (busy), a skipped pull, not a call', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const held = startTarget('127.0.0.2', async () => {
      await gate;
      return Response.json({ weightKg: 80 });
    });
    try {
      using app = testApp({ env: ALLOW });
      const { apiKey, token } = await extraShop(app, held.url('/held'));
      const hanging = Array.from({ length: 8 }, () => load(app, apiKey));
      while (held.hits < 8) await Bun.sleep(5);
      const ninth = await load(app, apiKey);
      expect(ninth.json.values).toEqual({});
      expect((await app.request('GET', '/v1/widget-config/bmi', { token })).json.webhookStatus.outcome).toBe('busy');
      expect(held.hits).toBe(8);
      release();
      for (const res of await Promise.all(hanging)) expect(res.json.values).toEqual({ weightKg: 80 });
      // A busy pull made no call: usage reports it as skipped, not among the calls.
      const report = (await app.request('GET', '/v1/usage', { token })).json;
      expect(report.webhook.map((row: { outcome: string; calls: number }) => [row.outcome, row.calls])).toEqual([
        ['ok', 8],
      ]);
      expect(report.skipped).toEqual([{ date: report.to, calcId: 'bmi', reason: 'busy', count: 1 }]);
    } finally {
      release();
      await held.stop();
    }
  });

  test('secret header values never appear in answers or logs', async () => {
    using app = testApp({ env: ALLOW });
    const owner = await extraShop(app, good.url('/s'), { Authorization: SECRET, 'X-Api-Key': 'key-77aa' });
    const answers = [
      await load(app, owner.apiKey),
      await app.request('GET', '/v1/widget-config/bmi', { token: owner.token }),
      await app.request('POST', '/v1/widget-config/bmi/test-webhook', { token: owner.token }),
      await app.request('PUT', '/v1/widget-config/bmi', {
        token: owner.token,
        body: { config: { webhook: { url: good.url('/s'), headers: { Authorization: '<redacted>' } } } },
      }),
      await app.request('GET', '/openapi.json'),
    ];
    await app.requestLines((line) => line.path === '/openapi.json');
    const everything = answers.map((a) => a.text).join('\n') + app.logs.join('\n');
    expect(everything).not.toContain('pull-secret-4f1c9e');
    expect(everything).not.toContain('key-77aa');
  });
});
