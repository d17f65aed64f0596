/** POST /v1/widget/preview: the dashboard's live preview, answered as a load but not counted. */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTarget, type TargetServer } from '../helpers/webhook-target.ts';
import { testApp } from '../helpers/test-app.ts';

const ALLOW = { CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.2/32' };
let target: TargetServer;
beforeAll(() => {
  target = startTarget('127.0.0.2', () => Response.json({ weightKg: 82, colour: 'blue' }));
});
afterAll(() => target.stop());

test('answers exactly what a load answers for the account, without counting it or checking a domain', async () => {
  using app = testApp({ env: ALLOW });
  const owner = await app.signup();
  await app.request('POST', '/v1/domains', { token: owner.token, body: { domain: 'https://shop.example' } });
  const load = await app.request('POST', '/v1/widget/load', {
    body: { apiKey: owner.apiKey, domain: 'https://shop.example', calcId: 'bmi' },
  });
  expect(load.status).toBe(200);
  const preview = await app.request('POST', '/v1/widget/preview', { token: owner.token, body: { calcId: 'bmi' } });
  expect(preview.status).toBe(200);
  expect(preview.json).toEqual(load.json);
  const { usage } = (await app.request('GET', '/v1/account', { token: owner.token })).json;
  expect(usage.used).toBe(1);
});

test('on Extra it makes the guarded pull, returns its values and records the outcome', async () => {
  using app = testApp({ env: ALLOW });
  const owner = await app.signup();
  await app.accounts.setPlan(owner.id, 'extra');
  const saved = await app.request('PUT', '/v1/widget-config/bmi', {
    token: owner.token,
    body: { config: { webhook: { url: target.url('/prefill') } } },
  });
  expect(saved.status).toBe(200);
  const hits = target.hits;
  const preview = await app.request('POST', '/v1/widget/preview', { token: owner.token, body: { calcId: 'bmi' } });
  expect(preview.status).toBe(200);
  expect(preview.json.values).toEqual({ weightKg: 82 });
  expect(target.hits).toBe(hits + 1);
  await app.flush();
  const config = await app.request('GET', '/v1/widget-config/bmi', { token: owner.token });
  expect(config.json.webhookStatus.outcome).toBe('ok');
  const { usage } = (await app.request('GET', '/v1/account', { token: owner.token })).json;
  expect(usage.used).toBe(0);
});

test('refuses without a token, an unknown calculator and a malformed body', async () => {
  using app = testApp();
  const owner = await app.signup();
  const anonymous = await app.request('POST', '/v1/widget/preview', { body: { calcId: 'bmi' } });
  expect(anonymous.status).toBe(401);
  expect(anonymous.json.error.code).toBe('unauthorized');
  const unknown = await app.request('POST', '/v1/widget/preview', { token: owner.token, body: { calcId: 'nope' } });
  expect(unknown.status).toBe(404);
  expect(unknown.json.error.code).toBe('calculator_not_found');
  for (const body of [{}, { calcId: 7 }, '{"calcId":', []]) {
    const bad = await app.request('POST', '/v1/widget/preview', { token: owner.token, body });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('invalid_request');
  }
});
