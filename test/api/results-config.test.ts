/**
 * The results config of a calculator (PUT/GET /v1/widget-config) and what the widget's load
 * and the owner's preview answer with it. Runs on SQLite and on PostgreSQL.
 */
import { describe, expect, test } from 'bun:test';
import { createApp } from '../../src/app.ts';
import { createLogger } from '../../src/logger.ts';
import { SHOP_ORIGIN } from '../helpers/owners.ts';
import { LEAD_CONFIG, resultsOwner } from '../helpers/results.ts';
import { TEST_JWT_SECRET, testApp, type TestApp } from '../helpers/test-app.ts';
import { startTarget } from '../helpers/webhook-target.ts';

const put = (app: TestApp, token: string, config: unknown, calcId = 'bmi') =>
  app.request('PUT', `/v1/widget-config/${calcId}`, { token, body: { config } });

const load = (app: TestApp, apiKey: string, calcId = 'bmi') =>
  app.request('POST', '/v1/widget/load', { body: { apiKey, domain: SHOP_ORIGIN, calcId } });

describe('saving the results config', () => {
  test('Free cannot turn results on (403 plan_required, nothing saved); turning them off works on any plan', async () => {
    using app = testApp();
    const owner = await app.signup();
    const refused = await put(app, owner.token, { results: LEAD_CONFIG });
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe('plan_required');
    expect(refused.json.error.message).toContain('Base or Extra');
    expect(await app.count('results_configs')).toBe(0);
    const off = await put(app, owner.token, { results: { enabled: false } });
    expect(off.status).toBe(200);
    expect(off.json.config).toEqual({ results: { enabled: false } });
  });

  test('Base saves it; GET shows it as saved, contact fields named; enabled: false turns it off and keeps its texts', async () => {
    using app = testApp();
    const owner = await app.signup();
    await app.accounts.setPlan(owner.id, 'base');
    const saved = await put(app, owner.token, {
      results: { enabled: true, contact: { email: 'optional' }, consentText: 'OK to email me.' },
    });
    expect(saved.status).toBe(200);
    const expected = {
      enabled: true,
      contact: { email: 'optional', name: 'off' },
      consentText: 'OK to email me.',
    };
    expect(saved.json).toEqual({ calcId: 'bmi', config: { results: expected }, webhookStatus: null });
    expect((await app.request('GET', '/v1/widget-config/bmi', { token: owner.token })).json.config.results).toEqual(
      expected,
    );
    const off = await put(app, owner.token, { results: { ...expected, enabled: false } });
    expect(off.json.config).toEqual({ results: { ...expected, enabled: false } });
  });

  test('bad configs are 400 invalid_request with details, in order after the calculator and the plan; nothing saved', async () => {
    using app = testApp();
    const owner = await app.signup();
    await app.accounts.setPlan(owner.id, 'base');
    const cases: [unknown, string][] = [
      [{ enabled: true, contact: { email: 'required' } }, 'config.results.consentText'],
      [{ enabled: true, contact: { name: 'optional' }, consentText: { de: 'Ja' } }, 'config.results.consentText'],
      [{ enabled: true, button: 'x'.repeat(201) }, 'config.results.button'],
      [{ enabled: true, button: { en: 'Send', xx: 'Send' } }, 'config.results.button'],
      [{ enabled: true, contact: { email: 'always' } }, 'config.results.contact.email'],
      [{ enabled: 'yes' }, 'config.results.enabled'],
      [null, 'config.results'],
    ];
    for (const [results, field] of cases) {
      const answer = await put(app, owner.token, { results });
      expect({ results, status: answer.status, code: answer.json.error.code }).toEqual({
        results,
        status: 400,
        code: 'invalid_request',
      });
      expect(answer.json.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    expect(await app.count('results_configs')).toBe(0);
    const unknown = await put(app, owner.token, { results: { enabled: true } }, 'no-such-calculator');
    expect([unknown.status, unknown.json.error.code]).toEqual([404, 'calculator_not_found']);
    const free = await app.signup();
    const bothWrong = await put(app, free.token, { results: { enabled: true, contact: { email: 'required' } } });
    expect(bothWrong.json.error.code).toBe('plan_required');
  });

  test('a PUT of results alone leaves the webhook; {config: {}} still removes the webhook and leaves results', async () => {
    const target = startTarget('127.0.0.2', () => Response.json({ weightKg: 82 }));
    try {
      using app = testApp({ env: { CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.2/32' } });
      const owner = await app.signup();
      await app.accounts.setPlan(owner.id, 'extra');
      expect((await put(app, owner.token, { webhook: { url: target.url('/prefill') } })).status).toBe(200);
      const both = await put(app, owner.token, { results: { enabled: true } });
      expect(both.json.config).toEqual({
        webhook: { url: target.url('/prefill'), headers: {} },
        results: { enabled: true },
      });
      const webhookGone = await put(app, owner.token, {});
      expect(webhookGone.json.config).toEqual({ results: { enabled: true } });
    } finally {
      await target.stop();
    }
  });
});

describe('the load answer', () => {
  test('carries `results` only while results are on and the plan has them', async () => {
    using app = testApp();
    const owner = await resultsOwner(app);
    const plain = await load(app, owner.apiKey, 'mortgage');
    expect(plain.status).toBe(200);
    expect(plain.json).not.toHaveProperty('results');
    const on = await load(app, owner.apiKey);
    expect(on.json.results).toEqual({
      button: LEAD_CONFIG.button,
      contact: LEAD_CONFIG.contact,
      consentText: LEAD_CONFIG.consentText,
    });
    expect(on.json.calcId).toBe('bmi');
    expect(on.json.values).toEqual({});

    await app.accounts.setPlan(owner.id, 'free');
    expect(await load(app, owner.apiKey).then((r) => r.json)).not.toHaveProperty('results');
    await app.accounts.setPlan(owner.id, 'extra');
    expect((await load(app, owner.apiKey)).json.results.contact).toEqual(LEAD_CONFIG.contact);

    await put(app, owner.token, { results: { enabled: false, contact: { email: 'required' }, consentText: 'x' } });
    expect((await load(app, owner.apiKey)).json).not.toHaveProperty('results');
    await put(app, owner.token, { results: { enabled: true } });
    expect((await load(app, owner.apiKey)).json.results).toEqual({ contact: { email: 'off', name: 'off' } });
  });

  test('a change saved through another server is seen by the next load here (no restart, no wait)', async () => {
    using app = testApp();
    const owner = await resultsOwner(app);
    // A second server on the same database, with its own memory.
    const other = createApp({
      config: app.config,
      database: app.database,
      jwtSecret: TEST_JWT_SECRET,
      headerKey: new Uint8Array(32).fill(7),
      logger: createLogger(() => {}),
    });
    try {
      expect((await load(app, owner.apiKey)).json.results.contact.email).toBe('required');
      for (const email of ['optional', 'off', 'required'] as const) {
        const saved = await other.handle(
          new Request('http://calc.test/v1/widget-config/bmi', {
            method: 'PUT',
            headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
            body: JSON.stringify({
              config: { results: { ...LEAD_CONFIG, contact: { email, name: 'off' } } },
            }),
          }),
        );
        expect(saved.status).toBe(200);
        expect((await load(app, owner.apiKey)).json.results.contact.email).toBe(email);
      }
    } finally {
      await other.delivery.stop(0);
    }
  });

  test("the owner's preview carries the same `results`", async () => {
    using app = testApp();
    const owner = await resultsOwner(app);
    const preview = await app.request('POST', '/v1/widget/preview', { token: owner.token, body: { calcId: 'bmi' } });
    expect(preview.status).toBe(200);
    expect(preview.json.results).toEqual((await load(app, owner.apiKey)).json.results);
    const other = await app.request('POST', '/v1/widget/preview', { token: owner.token, body: { calcId: 'mortgage' } });
    expect(other.json).not.toHaveProperty('results');
  });
});
