import { describe, expect, test } from 'bun:test';
import { testApp } from '../helpers/test-app.ts';

describe('owner domain routes', () => {
  test('add → 201 active, normalised; again → 200; list; remove → 200; remove again → 404', async () => {
    using app = testApp();
    const { token } = await app.signup();
    const added = await app.request('POST', '/v1/domains', { token, body: { domain: 'https://Shop.Example:443/' } });
    expect(added.status).toBe(201);
    expect(added.json.domain).toMatchObject({ domain: 'https://shop.example', status: 'active' });
    expect(Number.isNaN(Date.parse(added.json.domain.createdAt))).toBe(false);
    const again = await app.request('POST', '/v1/domains', { token, body: { domain: 'https://shop.example' } });
    expect(again.status).toBe(200);
    const list = await app.request('GET', '/v1/domains', { token });
    expect(list.json.domains).toEqual([added.json.domain]);
    const removed = await app.request('DELETE', '/v1/domains', { token, body: { domain: 'https://SHOP.example' } });
    expect(removed.status).toBe(200);
    expect(removed.json.domain.domain).toBe('https://shop.example');
    const missing = await app.request('DELETE', '/v1/domains', { token, body: { domain: 'https://shop.example' } });
    expect(missing.status).toBe(404);
    expect(missing.json.error.code).toBe('domain_not_found');
  });

  test.each([
    ['no body', undefined],
    ['wrong type', { domain: 7 }],
    ['a path', { domain: 'https://shop.example/page' }],
    ['no scheme', { domain: 'shop.example' }],
    ['user info', { domain: 'https://me@shop.example' }],
  ])('POST %s → 400 invalid_request and nothing stored', async (_name, body) => {
    using app = testApp();
    const { token } = await app.signup();
    const res = await app.request('POST', '/v1/domains', { token, body });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('invalid_request');
    expect((await app.request('GET', '/v1/domains', { token })).json.domains).toEqual([]);
  });

  test("accounts do not see or remove each other's domains", async () => {
    using app = testApp();
    const a = await app.signup();
    const b = await app.signup();
    await app.request('POST', '/v1/domains', { token: a.token, body: { domain: 'https://a.example' } });
    expect((await app.request('GET', '/v1/domains', { token: b.token })).json.domains).toEqual([]);
    expect(
      (await app.request('DELETE', '/v1/domains', { token: b.token, body: { domain: 'https://a.example' } })).status,
    ).toBe(404);
    expect((await app.request('GET', '/v1/domains', { token: a.token })).json.domains).toHaveLength(1);
  });
});

describe('register-domain: a page asks, the owner approves', () => {
  const ask = (app: ReturnType<typeof testApp>, apiKey: string, domain: string, headers: Record<string, string> = {}) =>
    app.request('POST', '/v1/widget/register-domain', { body: { apiKey, domain }, headers });

  test('pending (202) does not pass verify; asking again counts once; the owner approves it', async () => {
    using app = testApp();
    const { token, apiKey } = await app.signup();
    const first = await ask(app, apiKey, 'https://blog.example');
    expect(first.status).toBe(202);
    expect(first.json.domain).toMatchObject({ domain: 'https://blog.example', status: 'pending' });
    expect((await ask(app, apiKey, 'https://BLOG.example/')).status).toBe(202);
    expect((await app.request('GET', '/v1/domains', { token })).json.domains).toHaveLength(1);

    const verify = await app.request('POST', '/v1/widget/verify', {
      body: { apiKey, domain: 'https://blog.example', calcId: 'bmi' },
    });
    expect(verify.status).toBe(403);
    expect(verify.json.error.code).toBe('domain_pending');

    const approve = await app.request('POST', '/v1/domains', { token, body: { domain: 'https://blog.example' } });
    expect(approve.status).toBe(201);
    expect(approve.json.domain.status).toBe('active');
    expect(
      (
        await app.request('POST', '/v1/widget/verify', {
          body: { apiKey, domain: 'https://blog.example', calcId: 'bmi' },
        })
      ).status,
    ).toBe(200);
    expect((await ask(app, apiKey, 'https://blog.example')).status).toBe(200);
  });

  test('an origin an active wildcard already covers answers 200 active and records nothing', async () => {
    using app = testApp();
    const { token, apiKey } = await app.signup();
    await app.request('POST', '/v1/domains', { token, body: { domain: 'https://*.blog.example' } });
    const res = await ask(app, apiKey, 'https://a.blog.example');
    expect(res.status).toBe(200);
    expect(res.json.domain).toMatchObject({ domain: 'https://a.blog.example', status: 'active' });
    expect(
      (await app.request('GET', '/v1/domains', { token })).json.domains.map((d: { domain: string }) => d.domain),
    ).toEqual(['https://*.blog.example']);
  });

  test('wildcards are refused (400); bad key 401; Origin must match (403)', async () => {
    using app = testApp();
    const { apiKey } = await app.signup();
    expect((await ask(app, apiKey, 'https://*.blog.example')).status).toBe(400);
    expect((await ask(app, 'pk_wrong', 'https://blog.example')).json.error.code).toBe('invalid_api_key');
    const mismatch = await ask(app, apiKey, 'https://blog.example', { origin: 'https://evil.example' });
    expect(mismatch.status).toBe(403);
    expect(mismatch.json.error.code).toBe('origin_mismatch');
  });

  test('at most 20 pending requests: the 21st is 429 too_many_pending_domains', async () => {
    using app = testApp();
    const { token, apiKey } = await app.signup();
    for (let i = 0; i < 20; i++) expect((await ask(app, apiKey, `https://site${i}.example`)).status).toBe(202);
    const over = await ask(app, apiKey, 'https://site20.example');
    expect(over.status).toBe(429);
    expect(over.json.error.code).toBe('too_many_pending_domains');
    expect((await app.request('GET', '/v1/domains', { token })).json.domains).toHaveLength(20);
    // Approving one frees a place.
    await app.request('POST', '/v1/domains', { token, body: { domain: 'https://site0.example' } });
    expect((await ask(app, apiKey, 'https://site20.example')).status).toBe(202);
  });
});

describe('wildcard origins', () => {
  test.each([
    ['https://a.shop.example', 200],
    ['https://a.b.c.shop.example', 200],
    ['https://shop.example', 403],
    ['https://a.shop.example:8443', 403],
    ['http://a.shop.example', 403],
    ['https://a.othershop.example', 403],
    ['https://shop.example.evil.example', 403],
  ])('*.shop.example lets %s verify → %i', async (domain, status) => {
    using app = testApp();
    const { token, apiKey } = await app.signup();
    await app.request('POST', '/v1/domains', { token, body: { domain: 'https://*.shop.example' } });
    const res = await app.request('POST', '/v1/widget/verify', { body: { apiKey, domain, calcId: 'bmi' } });
    expect(res.status).toBe(status);
    if (status === 403) expect(res.json.error.code).toBe('domain_not_registered');
  });
});
