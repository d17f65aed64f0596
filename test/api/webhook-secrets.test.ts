import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTarget, type TargetServer } from '../helpers/webhook-target.ts';
import { extraOwner } from '../helpers/owners.ts';
import { testApp, type TestApp } from '../helpers/test-app.ts';

const ALLOW = { CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.2/32' };
const SECRET = 'Bearer s3cr3t-bound-to-its-origin';

let shop: TargetServer;
let other: TargetServer;
beforeAll(() => {
  shop = startTarget('127.0.0.2', () => Response.json({ weightKg: 82 }));
  other = startTarget('127.0.0.2', () => Response.json({ weightKg: 83 }));
});
afterAll(async () => {
  await shop.stop();
  await other.stop();
});

const put = (app: TestApp, token: string, webhook: unknown) =>
  app.request('PUT', '/v1/widget-config/bmi', { token, body: { config: { webhook } } });

/** Runs the stored webhook now and answers what the target received. */
async function pulled(app: TestApp, token: string, target: TargetServer) {
  const before = target.requests.length;
  const tested = await app.request('POST', '/v1/widget-config/bmi/test-webhook', { token });
  expect(tested.json.outcome).toBe('ok');
  return target.requests[before];
}

describe('a redacted secret stays with its origin', () => {
  test('same origin, another path: the stored value is kept', async () => {
    using app = testApp({ env: ALLOW });
    const { token } = await extraOwner(app);
    expect((await put(app, token, { url: shop.url('/a'), headers: { Authorization: SECRET } })).status).toBe(200);
    const kept = await put(app, token, { url: shop.url('/b?x=1'), headers: { authorization: '<redacted>' } });
    expect(kept.status).toBe(200);
    const received = await pulled(app, token, shop);
    expect(received?.path).toBe('/b?x=1');
    expect(received?.headers.authorization).toBe(SECRET);
  });

  test.each([
    ['another port', () => other.url('/a')],
    ['another host', () => shop.url('/a').replace('127.0.0.2', 'shop.example')],
    ['another scheme', () => shop.url('/a').replace('http:', 'https:')],
  ])('%s: 400 naming the header, and the stored config is unchanged', async (_name, url) => {
    using app = testApp({ env: ALLOW, resolve: async () => ['127.0.0.2'] });
    const { token } = await extraOwner(app);
    await put(app, token, { url: shop.url('/a'), headers: { 'X-Shop-Key': SECRET, 'X-Plain': 'p' } });
    const refused = await put(app, token, { url: url(), headers: { 'X-Shop-Key': '<redacted>', 'X-Plain': 'q' } });
    expect(refused.status).toBe(400);
    expect(refused.json.error.code).toBe('invalid_request');
    expect(refused.json.error.message).toContain('X-Shop-Key');
    expect(refused.json.error.message).not.toContain(SECRET);
    const stored = (await app.request('GET', '/v1/widget-config/bmi', { token })).json.config.webhook;
    expect(stored).toEqual({ url: shop.url('/a'), headers: { 'X-Shop-Key': '<redacted>', 'X-Plain': '<redacted>' } });
    const received = await pulled(app, token, shop);
    expect(received?.headers['x-shop-key']).toBe(SECRET);
    expect(received?.headers['x-plain']).toBe('p');
    expect(other.requests.filter((r) => r.headers['x-shop-key'] !== undefined)).toHaveLength(0);
  });

  test('a new origin with the real value sent again is fine', async () => {
    using app = testApp({ env: ALLOW });
    const { token } = await extraOwner(app);
    await put(app, token, { url: shop.url('/a'), headers: { Authorization: SECRET } });
    expect((await put(app, token, { url: other.url('/a'), headers: { Authorization: 'Bearer new' } })).status).toBe(
      200,
    );
    expect((await pulled(app, token, other))?.headers.authorization).toBe('Bearer new');
  });
});

describe('webhook header values', () => {
  test('a changed value is sent from the very next pull on, and a changed-back one too', async () => {
    using app = testApp({ env: ALLOW });
    const { token } = await extraOwner(app);
    await put(app, token, { url: shop.url('/a'), headers: { Authorization: SECRET } });
    expect((await pulled(app, token, shop))?.headers.authorization).toBe(SECRET);
    await put(app, token, { url: shop.url('/a'), headers: { Authorization: 'Bearer rotated' } });
    expect((await pulled(app, token, shop))?.headers.authorization).toBe('Bearer rotated');
    await put(app, token, { url: shop.url('/a'), headers: { Authorization: SECRET } });
    expect((await pulled(app, token, shop))?.headers.authorization).toBe(SECRET);
    await put(app, token, { url: shop.url('/a') });
    expect((await pulled(app, token, shop))?.headers.authorization).toBeUndefined();
  });

  test.each([
    ['CR LF', 'a\r\nX-Injected: 1'],
    ['NUL', 'a\u0000b'],
    ['escape (terminal sequence)', 'a\u001b[2Jb'],
    ['bell', 'a\u0007'],
    ['vertical tab', 'a\u000bb'],
    ['DEL', 'a\u007fb'],
    ['C1 control', 'a\u0085b'],
  ])('%s in a value → 400, nothing saved', async (_name, value) => {
    using app = testApp({ env: ALLOW });
    const { token } = await extraOwner(app);
    const res = await put(app, token, { url: shop.url('/a'), headers: { 'X-Key': value } });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('invalid_request');
    expect((await app.request('GET', '/v1/widget-config/bmi', { token })).json.config).toEqual({});
  });

  test('a tab inside a value is allowed and sent as is', async () => {
    using app = testApp({ env: ALLOW });
    const { token } = await extraOwner(app);
    expect((await put(app, token, { url: shop.url('/a'), headers: { 'X-Key': 'a\tb' } })).status).toBe(200);
    expect((await pulled(app, token, shop))?.headers['x-key']).toBe('a\tb');
  });
});
