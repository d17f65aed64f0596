import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useCompiledWithPostgres } from '../helpers/postgres.ts';
import { callJson, runCommand, startServe } from '../helpers/process.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { startTarget } from '../helpers/webhook-target.ts';
import { Webhook } from 'standardwebhooks';
import { startReceiver } from '../helpers/receiver.ts';

const setup = useCompiledWithPostgres();

const ORIGIN = 'https://shop.example';
const EMAIL = 'owner@shop.example';
const PASSWORD = 'correct horse battery';
const HEADER_VALUE = 'shop-token-kept-encrypted';
const OTHER = 'https://elsewhere.example';
const LIMITS = { loadsPerDay: 5000, loadsPerDayPerDomain: null, pullsPerSecond: 10, registerDomain: false };

test('calc admin migrate: everything an owner had on SQLite works through servers on PostgreSQL; a non-empty target is refused', async () => {
  const { calc, pg } = setup;
  using dir = tempDir();
  const data = join(dir.path, 'data');
  const shop = startTarget('127.0.0.2', () => Response.json({ weight: 154 }));
  const allow = { CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.2/32' };
  const events = startReceiver();
  let endpointSecret = '';
  let resultId = '';
  try {
    // An owner on SQLite: account on Extra, a domain, a webhook with a secret header, usage.
    const lite = await startServe([calc], ['--data', data], allow);
    let apiKey = '';
    try {
      const signup = await callJson(lite.url, 'POST', '/v1/auth/signup', { email: EMAIL, password: PASSWORD });
      expect(signup.status).toBe(201);
      apiKey = signup.json.account.apiKey;
      const token: string = signup.json.token;
      const plan = await runCommand(
        [calc],
        ['admin', 'accounts', 'set-plan', '--email', EMAIL, '--plan', 'extra', '--data', data],
      );
      expect(plan.exitCode).toBe(0);
      expect((await callJson(lite.url, 'POST', '/v1/domains', { domain: ORIGIN }, token)).status).toBe(201);
      const config = { webhook: { url: shop.url('/prefill'), headers: { 'X-Shop-Token': HEADER_VALUE } } };
      expect((await callJson(lite.url, 'PUT', '/v1/widget-config/bmi', { config }, token)).status).toBe(200);
      for (let i = 0; i < 3; i++) {
        const load = await callJson(lite.url, 'POST', '/v1/widget/load', { apiKey, domain: ORIGIN, calcId: 'bmi' });
        expect(load.status).toBe(200);
      }
      // A refused call and the owner's limits go across too.
      const refused = await callJson(lite.url, 'POST', '/v1/widget/load', { apiKey, domain: OTHER, calcId: 'bmi' });
      expect(refused.status).toBe(403);
      // Funnel steps go across too.
      const funnel = { apiKey, domain: ORIGIN, calcId: 'bmi', events: ['view', 'start'] };
      expect((await callJson(lite.url, 'POST', '/v1/widget/events', funnel)).status).toBe(204);
      expect((await callJson(lite.url, 'PUT', '/v1/account/limits', LIMITS, token)).status).toBe(200);
      // Results on for bmi and a visitor's result (before the endpoint: no event of its own).
      const results = { results: { enabled: true, contact: { email: 'required' }, consentText: 'OK' } };
      expect((await callJson(lite.url, 'PUT', '/v1/widget-config/bmi', { config: results }, token)).status).toBe(200);
      const submit = await callJson(lite.url, 'POST', '/v1/widget/submit', {
        apiKey,
        domain: ORIGIN,
        calcId: 'bmi',
        inputs: { weight: 176, height: 70 },
        units: 'imperial',
        contact: { email: 'jo@example.net' },
        consent: true,
      });
      expect(submit.status).toBe(202);
      resultId = submit.json.id;
      // A results endpoint with its sealed secret, a delivered event and its log entry.
      const endpoint = await callJson(lite.url, 'PUT', '/v1/account/results-endpoint', { url: events.url() }, token);
      endpointSecret = endpoint.json.secret;
      const tested = await callJson(lite.url, 'POST', '/v1/account/results-endpoint/test', undefined, token);
      expect(tested.json.delivery.outcome).toBe('ok');
    } finally {
      expect((await lite.stop()).exitCode).toBe(0);
    }

    const url = await pg.createDatabase();
    const migrated = await runCommand([calc], ['admin', 'migrate', '--to', url, '--data', data, '--json']);
    expect(migrated.exitCode).toBe(0);
    const summary = JSON.parse(migrated.stdout);
    expect(summary.verified).toBe(true);
    expect(summary.tables).toMatchObject({
      accounts: 1,
      domains: 1,
      widget_configs: 1,
      signing_secrets: 1,
      usage: 1,
      refused_daily: 1,
      skipped_daily: 0,
      // view and start, and the submission (a funnel step of its own).
      funnel_daily: 3,
      results_endpoints: 1,
      delivery_events: 1,
      delivery_attempts: 1,
      results: 1,
      results_configs: 1,
      results_monthly: 1,
    });
    // Progress per table on standard error, never on the JSON output.
    for (const table of Object.keys(summary.tables)) expect(migrated.stderr).toContain(`${table}: `);
    // The header value is copied still sealed, never printed.
    expect(migrated.stdout + migrated.stderr).not.toContain(HEADER_VALUE);

    const env = {
      ...allow,
      CALC_DATABASE_URL: url,
      CALC_JWT_SECRET: 'a-new-shared-jwt-secret-for-the-servers-0123',
      CALC_WEBHOOK_KEY: readFileSync(join(data, 'webhook-key'), 'utf8').trim(),
    };
    const server = await startServe([calc], ['--data', join(dir.path, 'fresh')], env);
    try {
      const login = await callJson(server.url, 'POST', '/v1/auth/login', { email: EMAIL, password: PASSWORD });
      expect(login.status).toBe(200);
      const token: string = login.json.token;
      const overview = await callJson(server.url, 'GET', '/v1/account', undefined, token);
      expect(overview.json.account).toMatchObject({ plan: 'extra', apiKey });
      expect(overview.json.usage.used).toBe(3);
      expect((await callJson(server.url, 'GET', '/v1/account/limits', undefined, token)).json).toEqual({
        limits: LIMITS,
      });
      const refusedRows = (await callJson(server.url, 'GET', '/v1/usage', undefined, token)).json.refused;
      expect(refusedRows).toMatchObject([{ calcId: 'bmi', reason: 'domain_not_registered', count: 1 }]);
      const funnel = (await callJson(server.url, 'GET', '/v1/usage/funnel', undefined, token)).json;
      expect(funnel.total).toMatchObject({ views: 1, starts: 1, completes: 0, submits: 1 });
      const domains = await callJson(server.url, 'GET', '/v1/domains', undefined, token);
      expect(JSON.stringify(domains.json)).toContain(ORIGIN);
      const before = shop.hits;
      const load = await callJson(server.url, 'POST', '/v1/widget/load', { apiKey, domain: ORIGIN, calcId: 'bmi' });
      expect(load.status).toBe(200);
      expect(load.json.values).toEqual({ weight: 154 });
      // The results config and the stored result came across.
      expect(load.json.results.contact).toEqual({ email: 'required', name: 'off' });
      const result = await callJson(server.url, 'GET', `/v1/results/${resultId}`, undefined, token);
      expect(result.json.result).toMatchObject({ units: 'imperial', contact: { email: 'jo@example.net' } });
      // The header decrypts with the same key on PostgreSQL: the shop receives it.
      expect(shop.hits).toBe(before + 1);
      expect(shop.requests.at(-1)?.headers['x-shop-token']).toBe(HEADER_VALUE);
      // The endpoint's secret opens with the same key: deliveries verify with the secret shown on SQLite.
      const log = await callJson(server.url, 'GET', '/v1/account/results-endpoint/deliveries', undefined, token);
      expect(log.json.deliveries).toHaveLength(1);
      const tested = await callJson(server.url, 'POST', '/v1/account/results-endpoint/test', undefined, token);
      expect(tested.json.delivery.outcome).toBe('ok');
      const got = events.received.at(-1);
      expect(new Webhook(endpointSecret).verify(got?.body ?? '', got?.headers ?? {})).toMatchObject({
        id: tested.json.eventId,
      });
    } finally {
      expect((await server.stop()).exitCode).toBe(0);
    }

    // A second copy into the now non-empty database is refused.
    const again = await runCommand([calc], ['admin', 'migrate', '--to', url, '--data', data, '--json']);
    expect(again.exitCode).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toContain('not empty');
  } finally {
    await shop.stop();
    await events.stop();
  }
}, 180_000);
