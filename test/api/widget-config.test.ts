import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTarget, type TargetServer } from '../helpers/webhook-target.ts';
import { extraOwner } from '../helpers/owners.ts';
import { testApp, type TestApp } from '../helpers/test-app.ts';

const ALLOW = { CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.2/32' };
const SECRET = 'Bearer s3cr3t-value-never-shown';

let target: TargetServer;
let loopback: TargetServer;
beforeAll(() => {
  target = startTarget('127.0.0.2', () => Response.json({ weightKg: 82, heightCm: 181 }));
  loopback = startTarget('127.0.0.1', () => Response.json({ weightKg: 1 }));
});
afterAll(async () => {
  await target.stop();
  await loopback.stop();
});

const put = (app: TestApp, token: string, calcId: string, config: unknown) =>
  app.request('PUT', `/v1/widget-config/${calcId}`, { token, body: { config } });

describe('GET/PUT /v1/widget-config/:calcId', () => {
  test('nothing saved → {config: {}} and no status', async () => {
    using app = testApp({ env: ALLOW });
    const { token } = await app.signup();
    const res = await app.request('GET', '/v1/widget-config/bmi', { token });
    expect(res.json).toEqual({ calcId: 'bmi', config: {}, webhookStatus: null });
  });

  test('Extra saves a webhook; header values are redacted in every answer and encrypted at rest', async () => {
    using app = testApp({ env: ALLOW });
    const { token, id } = await extraOwner(app);
    const saved = await put(app, token, 'bmi', {
      webhook: { url: target.url('/prefill'), headers: { Authorization: SECRET, 'X-Shop': 'one' } },
    });
    expect(saved.status).toBe(200);
    expect(saved.json.config.webhook).toEqual({
      url: target.url('/prefill'),
      headers: { Authorization: '<redacted>', 'X-Shop': '<redacted>' },
    });
    const read = await app.request('GET', '/v1/widget-config/bmi', { token });
    expect(read.json.config).toEqual(saved.json.config);
    expect(read.text).not.toContain('s3cr3t');
    const [row] = (await app.sql('SELECT * FROM widget_configs WHERE account_id = ?', id)) as Record<string, string>[];
    expect(JSON.stringify(row)).not.toContain('s3cr3t');
    expect(String(row?.webhook_headers).startsWith('v1.')).toBe(true);
  });

  test.each(['free', 'base'] as const)(
    'a %s account saving a webhook → 403 plan_required naming Extra and its plan; nothing stored',
    async (plan) => {
      using app = testApp({ env: ALLOW });
      const owner = await app.signup();
      await app.accounts.setPlan(owner.id, plan);
      const res = await put(app, owner.token, 'bmi', { webhook: { url: target.url() } });
      expect(res.status).toBe(403);
      expect(res.json.error.code).toBe('plan_required');
      expect(res.json.error.message).toContain('Extra plan (50 USD per month)');
      expect(res.json.error.message).toContain(plan === 'free' ? 'Free' : 'Base');
      expect(await app.count('widget_configs')).toBe(0);
    },
  );

  test('removal works on any plan: {config: {}} and {webhook: null}', async () => {
    using app = testApp({ env: ALLOW });
    const { token, id } = await extraOwner(app);
    await put(app, token, 'bmi', { webhook: { url: target.url() } });
    await app.accounts.setPlan(id, 'free');
    const removed = await put(app, token, 'bmi', {});
    expect(removed.status).toBe(200);
    expect(removed.json.config).toEqual({});
    expect((await put(app, token, 'bmi', { webhook: null })).json.config).toEqual({});
  });

  test('checks run in order: body 400 → calculator 404 → plan 403 → headers 400 → URL 422', async () => {
    using app = testApp({ env: ALLOW });
    const free = await app.signup();
    const extra = await extraOwner(app);
    const cases: [string, string, string, unknown, number, string][] = [
      ['malformed body', free.token, 'bmi', 'nope', 400, 'invalid_request'],
      ['malformed calcId', free.token, 'BMI!', { webhook: { url: 'ftp://x' } }, 400, 'invalid_request'],
      [
        'unknown calculator before plan',
        free.token,
        'nope',
        { webhook: { url: 'ftp://x' } },
        404,
        'calculator_not_found',
      ],
      [
        'plan before headers and URL',
        free.token,
        'bmi',
        { webhook: { url: 'ftp://x', headers: { Host: 'x' } } },
        403,
        'plan_required',
      ],
      [
        'headers before URL',
        extra.token,
        'bmi',
        { webhook: { url: 'ftp://x', headers: { Host: 'x' } } },
        400,
        'invalid_request',
      ],
      ['URL last', extra.token, 'bmi', { webhook: { url: 'ftp://x' } }, 422, 'invalid_webhook_url'],
    ];
    for (const [name, token, calcId, config, status, code] of cases) {
      const res = await put(app, token, calcId, config);
      expect({ name, status: res.status, code: res.json?.error?.code }).toEqual({ name, status, code });
    }
    expect(await app.count('widget_configs')).toBe(0);
  });

  test.each([
    ['Host', 'evil.example'],
    ['Content-Length', '5'],
    ['Transfer-Encoding', 'chunked'],
    ['Connection', 'close'],
    ['Keep-Alive', '1'],
    ['Upgrade', 'h2c'],
    ['Calc-Calculator', 'bmi'],
    ['calc-origin', 'https://evil.example'],
    ['CALC-VISITOR', 'someone-else'],
    ['Calc-Signature', 't=1,v1=00'],
    ['Bad Name', 'x'],
    ['X-Split', 'a\r\nInjected: yes'],
    ['X-Nul', 'a\u0000b'],
  ])('header %s refused with 400', async (name, value) => {
    using app = testApp({ env: ALLOW });
    const { token } = await extraOwner(app);
    const res = await put(app, token, 'bmi', { webhook: { url: target.url(), headers: { [name]: value } } });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('invalid_request');
  });

  test('more than 20 headers or more than 8 KiB in all → 400', async () => {
    using app = testApp({ env: ALLOW });
    const { token } = await extraOwner(app);
    const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`X-H${i}`, 'v']));
    expect((await put(app, token, 'bmi', { webhook: { url: target.url(), headers: many } })).status).toBe(400);
    const big = { 'X-A': 'a'.repeat(4200), 'X-B': 'b'.repeat(4200) };
    expect((await put(app, token, 'bmi', { webhook: { url: target.url(), headers: big } })).status).toBe(400);
  });

  test.each([
    ['file:///etc/passwd', 'scheme'],
    ['gopher://127.0.0.2:70/', 'scheme'],
    ['http://user:pw@127.0.0.2/', 'user'],
    ['http://127.0.0.1/', '127.0.0.1'],
    ['http://localhost:8080/', 'localhost'],
    ['http://169.254.169.254/latest/meta-data', '169.254.169.254'],
    ['http://[::1]/', '::1'],
    ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1'],
    ['http://2130706433/', '127.0.0.1'],
    ['http://127.0.0.2:22/', 'port'],
    ['http://10.0.0.1/', '10.0.0.1'],
    ['http://does-not-resolve.invalid/', 'resolve'],
  ])('URL %s → 422 invalid_webhook_url naming the reason', async (url, reason) => {
    using app = testApp({
      env: ALLOW,
      resolve: async (name) => (name === 'does-not-resolve.invalid' ? [] : ['93.184.215.14']),
    });
    const { token } = await extraOwner(app);
    const res = await put(app, token, 'bmi', { webhook: { url } });
    expect(res.status).toBe(422);
    expect(res.json.error.code).toBe('invalid_webhook_url');
    expect(res.json.error.message.toLowerCase()).toContain(reason.toLowerCase());
  });

  test('a refused address of this machine says how to test locally; the documented way then works', async () => {
    {
      using app = testApp();
      const { token } = await extraOwner(app);
      for (const url of [target.url('/prefill'), 'http://localhost:8080/prefill']) {
        const refused = await put(app, token, 'bmi', { webhook: { url } });
        expect(refused.status).toBe(422);
        expect(refused.json.error.message).toContain('CALC_WEBHOOK_ALLOW_CIDRS=127.0.0.2/32');
        expect(refused.json.error.message).toContain('"Test locally" in docs/webhooks.md');
      }
      // A refusal that has nothing to do with addresses gets no such hint.
      const scheme = await put(app, token, 'bmi', { webhook: { url: 'ftp://x' } });
      expect(scheme.json.error.message).not.toContain('CALC_WEBHOOK_ALLOW_CIDRS');
    }
    // The documented setting, with the test target bound to 127.0.0.2 as documented.
    using allowed = testApp({ env: { CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.2/32' } });
    const { token } = await extraOwner(allowed);
    expect((await put(allowed, token, 'bmi', { webhook: { url: target.url('/prefill') } })).status).toBe(200);
    const tested = await allowed.request('POST', '/v1/widget-config/bmi/test-webhook', { token });
    expect(tested.json).toMatchObject({ outcome: 'ok', values: { weightKg: 82 } });
    // Names never pass, allowlisted or not: the documented URL uses the address.
    expect((await put(allowed, token, 'bmi', { webhook: { url: 'http://localhost:8080/' } })).status).toBe(422);
  });

  test('a name resolving to several addresses with one private is refused at save', async () => {
    using app = testApp({ env: ALLOW, resolve: async () => ['93.184.215.14', '10.1.2.3'] });
    const { token } = await extraOwner(app);
    const res = await put(app, token, 'bmi', { webhook: { url: 'https://api.shop.example/prefill' } });
    expect(res.status).toBe(422);
    // It says why, about the name the owner typed, without the addresses it resolved to.
    expect(res.json.error.message).toContain('api.shop.example');
    expect(res.json.error.message).toContain('private network');
    expect(res.json.error.message).not.toContain('10.1.2.3');
    expect(res.json.error.message).not.toContain('93.184.215.14');
  });

  test('"<redacted>" sent back keeps the stored secret; a header left out is removed', async () => {
    using app = testApp({ env: ALLOW });
    const { token } = await extraOwner(app);
    await put(app, token, 'bmi', {
      webhook: { url: target.url('/a'), headers: { Authorization: SECRET, 'X-Old': 'gone' } },
    });
    const read = (await app.request('GET', '/v1/widget-config/bmi', { token })).json;
    const edited = {
      webhook: { url: target.url('/b'), headers: { Authorization: read.config.webhook.headers.Authorization } },
    };
    const saved = await put(app, token, 'bmi', edited);
    expect(saved.json.config.webhook).toEqual({ url: target.url('/b'), headers: { Authorization: '<redacted>' } });
    const before = target.requests.length;
    const tested = await app.request('POST', '/v1/widget-config/bmi/test-webhook', { token });
    expect(tested.json.outcome).toBe('ok');
    const received = target.requests[before];
    expect(received?.path).toBe('/b');
    expect(received?.headers.authorization).toBe(SECRET);
    expect(received?.headers['x-old']).toBeUndefined();
    // A redacted value for a name with nothing stored is an error, not a literal "<redacted>".
    const bad = await put(app, token, 'bmi', { webhook: { url: target.url(), headers: { 'X-New': '<redacted>' } } });
    expect(bad.status).toBe(400);
  });
});

describe('POST /v1/widget-config/:calcId/test-webhook', () => {
  test('shows outcome, status, values and ignored keys; records webhookStatus', async () => {
    const shop = startTarget('127.0.0.2', () =>
      Response.json({ weightKg: 90, height: 70, unknown: 1, heightCm: 'tall', __proto__: 5 }),
    );
    try {
      using app = testApp({ env: ALLOW });
      const { token } = await extraOwner(app);
      await put(app, token, 'bmi', { webhook: { url: shop.url('/x') } });
      const res = await app.request('POST', '/v1/widget-config/bmi/test-webhook', { token });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ outcome: 'ok', httpStatus: 200, values: { weightKg: 90, height: 70 } });
      expect(res.json.ignoredKeys.sort()).toEqual(['heightCm', 'unknown']);
      expect(typeof res.json.durationMs).toBe('number');
      const status = (await app.request('GET', '/v1/widget-config/bmi', { token })).json.webhookStatus;
      expect(status).toMatchObject({ outcome: 'ok', httpStatus: 200 });
      expect(Number.isNaN(Date.parse(status.at))).toBe(false);
    } finally {
      await shop.stop();
    }
  });

  test('no webhook → no_webhook; non-Extra → plan_required and no call', async () => {
    using app = testApp({ env: ALLOW });
    const owner = await extraOwner(app);
    expect((await app.request('POST', '/v1/widget-config/bmi/test-webhook', { token: owner.token })).json.outcome).toBe(
      'no_webhook',
    );
    await put(app, owner.token, 'bmi', { webhook: { url: target.url('/plan') } });
    await app.accounts.setPlan(owner.id, 'base');
    const hits = target.hits;
    const res = await app.request('POST', '/v1/widget-config/bmi/test-webhook', { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.json.outcome).toBe('plan_required');
    expect(target.hits).toBe(hits);
  });

  test('an outcome from before a save or removal never describes the new config', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = startTarget('127.0.0.2', async () => {
      await gate;
      return new Response('nope', { status: 500 });
    });
    try {
      using app = testApp({ env: ALLOW });
      const { token } = await extraOwner(app);
      await put(app, token, 'bmi', { webhook: { url: slow.url('/old') } });
      const running = app.request('POST', '/v1/widget-config/bmi/test-webhook', { token });
      while (slow.hits === 0) await Bun.sleep(5);
      await put(app, token, 'bmi', { webhook: { url: target.url('/new') } });
      release();
      expect((await running).json.outcome).toBe('http_error');
      expect((await app.request('GET', '/v1/widget-config/bmi', { token })).json.webhookStatus).toBeNull();
      await put(app, token, 'bmi', {});
      expect((await app.request('GET', '/v1/widget-config/bmi', { token })).json).toMatchObject({
        config: {},
        webhookStatus: null,
      });
    } finally {
      release();
      await slow.stop();
    }
  });

  test('the status survives a flush and is read back from the store', async () => {
    using app = testApp({ env: ALLOW });
    const { token } = await extraOwner(app);
    await put(app, token, 'bmi', { webhook: { url: target.url() } });
    await app.request('POST', '/v1/widget-config/bmi/test-webhook', { token });
    await app.flush();
    const [row] = await app.sql('SELECT webhook_status FROM widget_configs');
    expect(JSON.parse(String(row?.webhook_status)).outcome).toBe('ok');
    expect((await app.request('GET', '/v1/widget-config/bmi', { token })).json.webhookStatus.outcome).toBe('ok');
  });
});
