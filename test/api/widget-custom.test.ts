/**
 * Owners' own calculators on the widget routes, through the real app (SQLite, and
 * PostgreSQL with CALC_TEST_DATABASE=postgres): load and verify serve the published version
 * and never a draft, a publish is seen by the next load (on another server sharing the
 * database too), loads are counted in usage as the catalogue's are, the webhook pre-fill
 * merges through the calculator's own input keys, widget configs follow the calculator,
 * the owner's preview shows its draft, refusals are counted under its id, and funnel
 * reports are counted under it once it is published.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import type { Definition, Input } from '../../src/definition/types.ts';
import { roofQuote } from '../fixtures/roof-quote.ts';
import { manualClock } from '../helpers/clock.ts';
import { testApp, type TestApp } from '../helpers/test-app.ts';
import { startTarget, type TargetServer } from '../helpers/webhook-target.ts';

// Sign-ups hash passwords with argon2: a loaded machine must not turn that into a failure.
setDefaultTimeout(30_000);

const SHOP = 'https://shop.example';
const BASE = '/v1/account/calculators';
const ALLOW = { CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.2/32' };
const TODAY = '2026-11-25';

type Owner = Awaited<ReturnType<TestApp['signup']>>;

/** The roof quote (a number, a select, a toggle, a number shown with the toggle) with some changes. */
const quote = (changes: Partial<Definition> = {}): Definition => ({ ...roofQuote(), ...changes });
/** The roof quote with one more input: what a draft in progress adds. */
const withGutters = (): Definition => {
  const gutters: Input = { kind: 'number', key: 'gutters', label: 'Gutters', unit: 'm', min: 0, max: 200, default: 0 };
  return quote({ title: 'Roof quote with gutters', inputs: [...roofQuote().inputs, gutters] });
};

async function owner(app: TestApp, plan?: 'extra'): Promise<Owner> {
  const account = await app.signup();
  await app.request('POST', '/v1/domains', { token: account.token, body: { domain: SHOP } });
  if (plan) await app.accounts.setPlan(account.id, plan);
  return account;
}

async function expectStatus(res: Promise<{ status: number; text: string }>, status: number) {
  const answer = await res;
  if (answer.status !== status) throw new Error(`expected ${status}, got ${answer.status}: ${answer.text}`);
  return answer;
}

const create = (app: TestApp, who: Owner, definition: Definition) =>
  expectStatus(app.request('POST', BASE, { token: who.token, body: { definition } }), 201);
const saveDraft = (app: TestApp, who: Owner, definition: Definition) =>
  expectStatus(app.request('PUT', `${BASE}/${definition.id}`, { token: who.token, body: { definition } }), 200);
const publish = (app: TestApp, who: Owner, id: string) =>
  expectStatus(app.request('POST', `${BASE}/${id}/publish`, { token: who.token }), 200);
const remove = (app: TestApp, who: Owner, id: string) =>
  expectStatus(app.request('DELETE', `${BASE}/${id}`, { token: who.token }), 200);

/** A widget call as a page on `origin` makes it. */
const widget = (app: TestApp, route: 'load' | 'verify', apiKey: string, calcId: string, origin = SHOP) =>
  app.request('POST', `/v1/widget/${route}`, { body: { apiKey, domain: origin, calcId }, headers: { origin } });

/** What a load answers for an owner's calculator with this definition. */
const loadAnswer = (definition: Definition, values: Record<string, unknown> = {}) => ({
  calcId: definition.id,
  calculator: { id: definition.id, title: definition.title, definition },
  values,
});

const used = async (app: TestApp, who: Owner) =>
  (await app.request('GET', '/v1/account', { token: who.token })).json.usage.used as number;
const usage = async (app: TestApp, who: Owner) => (await app.request('GET', '/v1/usage', { token: who.token })).json;

describe('load and verify of an owner’s calculator', () => {
  test('the published version is served, never the draft; a new publish is seen by the next load', async () => {
    using app = testApp();
    const alice = await owner(app);
    const v1 = quote();
    await create(app, alice, v1);
    // A draft never published: not found, as an unknown id; nothing counted.
    for (const route of ['load', 'verify'] as const) {
      const res = await widget(app, route, alice.apiKey, 'roof-quote');
      expect({ route, status: res.status, error: res.json.error }).toEqual({
        route,
        status: 404,
        error: { code: 'calculator_not_found', message: 'There is no calculator "roof-quote".' },
      });
    }

    await publish(app, alice, 'roof-quote');
    const verify = await widget(app, 'verify', alice.apiKey, 'roof-quote');
    expect(verify.json).toEqual({ ok: true, calcId: 'roof-quote' });
    const first = await widget(app, 'load', alice.apiKey, 'roof-quote');
    expect(first.status).toBe(200);
    expect(first.json).toEqual(loadAnswer(v1));
    expect(first.headers.get('access-control-allow-origin')).toBe('*');

    // A saved draft changes nothing for visitors until it is published.
    const v2 = quote({ title: { en: 'Roof estimate', de: 'Dachschätzung' }, tables: { discounts: [[0, 0.1]] } });
    await saveDraft(app, alice, v2);
    expect((await widget(app, 'load', alice.apiKey, 'roof-quote')).json).toEqual(loadAnswer(v1));
    await publish(app, alice, 'roof-quote');
    expect((await widget(app, 'load', alice.apiKey, 'roof-quote')).json).toEqual(loadAnswer(v2));
    // Restoring version 1 as the draft and publishing it serves it again (as version 3).
    await expectStatus(app.request('POST', `${BASE}/roof-quote/versions/1/restore`, { token: alice.token }), 200);
    await publish(app, alice, 'roof-quote');
    expect((await widget(app, 'load', alice.apiKey, 'roof-quote')).json).toEqual(loadAnswer(v1));

    // Verify counts nothing; each 200 load counts one, as the catalogue's do.
    expect(await used(app, alice)).toBe(4);
  });

  test('a publish on one server is seen at once by the next load on another sharing the database', async () => {
    using one = testApp();
    using two = testApp({ sameDatabaseAs: one });
    const alice = await owner(one);
    const v1 = quote();
    await create(one, alice, v1);
    await publish(one, alice, 'roof-quote');
    // The second server caches version 1 ...
    expect((await widget(two, 'load', alice.apiKey, 'roof-quote')).json).toEqual(loadAnswer(v1));
    expect((await widget(two, 'load', alice.apiKey, 'roof-quote')).json).toEqual(loadAnswer(v1));
    // ... and serves version 2 on its very next load after the first server published it.
    const v2 = quote({ title: 'Roof estimate' });
    await saveDraft(one, alice, v2);
    await publish(one, alice, 'roof-quote');
    expect((await widget(two, 'load', alice.apiKey, 'roof-quote')).json).toEqual(loadAnswer(v2));
    // Deleted on one: gone on the other at once; re-created under the same id, the new one is served.
    await remove(one, alice, 'roof-quote');
    expect((await widget(two, 'load', alice.apiKey, 'roof-quote')).json.error.code).toBe('calculator_not_found');
    const again = quote({ title: 'A new roof quote' });
    await create(one, alice, again);
    await publish(one, alice, 'roof-quote');
    expect((await widget(two, 'load', alice.apiKey, 'roof-quote')).json).toEqual(loadAnswer(again));
    // Both servers' loads land in the one usage.
    await one.flush();
    await two.flush();
    expect((await usage(one, alice)).rows).toEqual([
      { date: expect.any(String), calcId: 'roof-quote', domain: SHOP, loads: 4 },
    ]);
  });

  test('another account’s calculator and a deleted one are not found, and not counted; usage keeps its history', async () => {
    const clock = manualClock();
    using app = testApp({ now: clock.now });
    const alice = await owner(app);
    const bob = await owner(app);
    await create(app, alice, quote());
    await publish(app, alice, 'roof-quote');
    // Bob's key does not reach Alice's calculator; his own under the same id is his.
    expect((await widget(app, 'load', bob.apiKey, 'roof-quote')).json.error.code).toBe('calculator_not_found');
    expect((await widget(app, 'verify', bob.apiKey, 'roof-quote')).json.error.code).toBe('calculator_not_found');
    const bobs = quote({ title: "Bob's roofs" });
    await create(app, bob, bobs);
    await publish(app, bob, 'roof-quote');
    expect((await widget(app, 'load', bob.apiKey, 'roof-quote')).json).toEqual(loadAnswer(bobs));
    expect((await widget(app, 'load', alice.apiKey, 'roof-quote')).json).toEqual(loadAnswer(quote()));

    // Usage per day × calculator × origin, custom and catalogue side by side.
    for (let i = 0; i < 2; i++) expect((await widget(app, 'load', alice.apiKey, 'roof-quote')).status).toBe(200);
    expect((await widget(app, 'load', alice.apiKey, 'bmi')).status).toBe(200);
    const expected = [
      { date: TODAY, calcId: 'bmi', domain: SHOP, loads: 1 },
      { date: TODAY, calcId: 'roof-quote', domain: SHOP, loads: 3 },
    ];
    expect((await usage(app, alice)).rows).toEqual(expected);
    await app.flush();
    expect((await usage(app, alice)).rows).toEqual(expected);

    // Deleted: not found on both routes and not counted; its history stays, flushed or not.
    expect((await widget(app, 'load', alice.apiKey, 'roof-quote')).status).toBe(200);
    await remove(app, alice, 'roof-quote');
    for (const route of ['load', 'verify'] as const)
      expect((await widget(app, route, alice.apiKey, 'roof-quote')).json.error.code).toBe('calculator_not_found');
    const after = [expected[0], { ...expected[1], loads: 4 }];
    expect((await usage(app, alice)).rows).toEqual(after);
    await app.flush();
    expect((await usage(app, alice)).rows).toEqual(after);
    expect((await usage(app, alice)).total).toBe(5);
    // Bob's calculator of the same id is untouched.
    expect((await widget(app, 'load', bob.apiKey, 'roof-quote')).json).toEqual(loadAnswer(bobs));
  });
});

/** Webhook answers by path: each test points a calculator's config at its own. */
const answers = new Map<string, unknown>();
let hook: TargetServer;
beforeAll(() => {
  hook = startTarget('127.0.0.2', (request) => Response.json(answers.get(new URL(request.url).pathname) ?? {}));
});
afterAll(() => hook.stop());

/** A webhook URL answering `body`. */
function answering(body: unknown): string {
  const path = `/prefill/${crypto.randomUUID()}`;
  answers.set(path, body);
  return hook.url(path);
}

const setWebhook = (app: TestApp, who: Owner, calcId: string, url: string) =>
  app.request('PUT', `/v1/widget-config/${calcId}`, { token: who.token, body: { config: { webhook: { url } } } });
const testWebhook = (app: TestApp, who: Owner, calcId: string) =>
  app.request('POST', `/v1/widget-config/${calcId}/test-webhook`, { token: who.token });

describe('the webhook pre-fill of an owner’s calculator', () => {
  test('merges through its own input keys: a number in range, an option value, a boolean; the rest is ignored', async () => {
    const clock = manualClock();
    using app = testApp({ env: ALLOW, now: clock.now });
    const alice = await owner(app, 'extra');
    await create(app, alice, quote());
    await publish(app, alice, 'roof-quote');

    // Valid for the roof quote; bmi's key and an unknown one are not its keys.
    const good = { area: 300, material: 'metal', removal: true, layers: 2, weightKg: 80, colour: 'red' };
    expect((await setWebhook(app, alice, 'roof-quote', answering(good))).status).toBe(200);
    const load = await widget(app, 'load', alice.apiKey, 'roof-quote');
    expect(load.json.values).toEqual({ area: 300, material: 'metal', removal: true, layers: 2 });
    const tested = await testWebhook(app, alice, 'roof-quote');
    expect(tested.json).toMatchObject({
      outcome: 'ok',
      values: { area: 300, material: 'metal', removal: true, layers: 2 },
      ignoredKeys: ['weightKg', 'colour'],
    });

    // Each kind's rules: out of range, a string for a number, an option's label or number,
    // 1 or "true" for a toggle, a prototype key: all ignored, and the load gets its defaults.
    const bad = {
      area: 5000,
      layers: '2',
      material: 'Metal',
      removal: 1,
      constructor: 3,
    };
    await setWebhook(app, alice, 'roof-quote', answering(bad));
    expect((await widget(app, 'load', alice.apiKey, 'roof-quote')).json.values).toEqual({});
    expect((await testWebhook(app, alice, 'roof-quote')).json).toMatchObject({
      outcome: 'ok',
      values: {},
      ignoredKeys: ['area', 'layers', 'material', 'removal', 'constructor'],
    });
    await setWebhook(app, alice, 'roof-quote', answering({ material: 30, removal: 'true', area: 10, layers: 3 }));
    expect((await widget(app, 'load', alice.apiKey, 'roof-quote')).json.values).toEqual({ area: 10, layers: 3 });

    // The calls are counted under the calculator's id, as the catalogue's are.
    await app.flush();
    expect((await usage(app, alice)).webhook).toEqual([{ date: TODAY, calcId: 'roof-quote', outcome: 'ok', calls: 3 }]);
  });

  test('config for any calculator of the account’s, drafts included; a test pull merges through what visitors load', async () => {
    using app = testApp({ env: ALLOW });
    const alice = await owner(app, 'extra');
    const bob = await owner(app, 'extra');
    await create(app, alice, quote());
    // Never published: it may already be configured, so its first visitors are pre-filled.
    const empty = await app.request('GET', '/v1/widget-config/roof-quote', { token: alice.token });
    expect(empty.json).toEqual({ calcId: 'roof-quote', config: {}, webhookStatus: null });
    const url = answering({ area: 250, gutters: 40 });
    const saved = await setWebhook(app, alice, 'roof-quote', url);
    expect(saved.status).toBe(200);
    expect(saved.json.config).toEqual({ webhook: { url, headers: {} } });
    // Through the draft's keys while there is no published version.
    expect((await testWebhook(app, alice, 'roof-quote')).json).toMatchObject({
      values: { area: 250 },
      ignoredKeys: ['gutters'],
    });
    await publish(app, alice, 'roof-quote');
    // A draft with a new input: visitors' loads, and the test, go by the published keys ...
    await saveDraft(app, alice, withGutters());
    expect((await widget(app, 'load', alice.apiKey, 'roof-quote')).json.values).toEqual({ area: 250 });
    expect((await testWebhook(app, alice, 'roof-quote')).json.ignoredKeys).toEqual(['gutters']);
    // ... and the draft's preview by the draft's.
    const preview = await app.request('POST', '/v1/widget/preview', {
      token: alice.token,
      body: { calcId: 'roof-quote', draft: true },
    });
    expect(preview.json.values).toEqual({ area: 250, gutters: 40 });

    // Another account's calculator is not found on every config route.
    for (const [method, path] of [
      ['GET', '/v1/widget-config/roof-quote'],
      ['PUT', '/v1/widget-config/roof-quote'],
      ['POST', '/v1/widget-config/roof-quote/test-webhook'],
    ] as const) {
      const res = await app.request(method, path, {
        token: bob.token,
        body: method === 'PUT' ? { config: { webhook: { url } } } : undefined,
      });
      expect({ path, status: res.status, code: res.json.error.code }).toEqual({
        path,
        status: 404,
        code: 'calculator_not_found',
      });
    }
    expect(await app.count('widget_configs WHERE account_id = $1', bob.id)).toBe(0);
  });

  test('deleting a calculator removes its widget config; the same id created again starts without one', async () => {
    using app = testApp({ env: ALLOW });
    const alice = await owner(app, 'extra');
    await create(app, alice, quote());
    await publish(app, alice, 'roof-quote');
    await setWebhook(app, alice, 'roof-quote', answering({ area: 250 }));
    await setWebhook(app, alice, 'bmi', answering({ weightKg: 80 }));
    expect(await app.count('widget_configs WHERE account_id = $1', alice.id)).toBe(2);

    await remove(app, alice, 'roof-quote');
    // Only the deleted calculator's config goes.
    expect(await app.sql('SELECT calc_id FROM widget_configs WHERE account_id = ?', alice.id)).toEqual([
      { calc_id: 'bmi' },
    ]);
    for (const [method, path] of [
      ['GET', '/v1/widget-config/roof-quote'],
      ['POST', '/v1/widget-config/roof-quote/test-webhook'],
    ] as const)
      expect((await app.request(method, path, { token: alice.token })).status).toBe(404);

    await create(app, alice, quote());
    await publish(app, alice, 'roof-quote');
    expect((await app.request('GET', '/v1/widget-config/roof-quote', { token: alice.token })).json.config).toEqual({});
    expect((await widget(app, 'load', alice.apiKey, 'roof-quote')).json.values).toEqual({});
  });
});

describe('the owner’s preview', () => {
  test('draft: true shows an own calculator’s draft, published or not; without it, what a load answers; never counted', async () => {
    using app = testApp();
    const alice = await owner(app);
    const bob = await owner(app);
    const preview = (who: Owner, body: unknown) =>
      app.request('POST', '/v1/widget/preview', { token: who.token, body });
    await create(app, alice, quote());

    const unpublished = await preview(alice, { calcId: 'roof-quote' });
    expect(unpublished.status).toBe(404);
    expect(unpublished.json.error.code).toBe('calculator_not_found');
    expect(unpublished.json.error.message).toContain('"draft": true');
    const draft = await preview(alice, { calcId: 'roof-quote', draft: true });
    expect(draft.status).toBe(200);
    expect(draft.json).toEqual(loadAnswer(quote()));

    await publish(app, alice, 'roof-quote');
    await saveDraft(app, alice, withGutters());
    const published = await preview(alice, { calcId: 'roof-quote' });
    expect(published.json).toEqual((await widget(app, 'load', alice.apiKey, 'roof-quote')).json);
    expect(published.json).toEqual(loadAnswer(quote()));
    expect((await preview(alice, { calcId: 'roof-quote', draft: true })).json).toEqual(loadAnswer(withGutters()));
    expect((await preview(alice, { calcId: 'roof-quote', draft: false })).json).toEqual(loadAnswer(quote()));

    // A catalogue calculator has no draft: `draft` changes nothing.
    const bmi = await preview(alice, { calcId: 'bmi' });
    expect(bmi.status).toBe(200);
    expect((await preview(alice, { calcId: 'bmi', draft: true })).json).toEqual(bmi.json);
    expect(bmi.json.calculator.definition.id).toBe('bmi');

    // Another account's draft is not found; a bad `draft` is a bad request.
    for (const body of [{ calcId: 'roof-quote', draft: true }, { calcId: 'roof-quote' }]) {
      const res = await preview(bob, body);
      expect({ body, status: res.status, code: res.json.error.code }).toEqual({
        body,
        status: 404,
        code: 'calculator_not_found',
      });
    }
    const bad = await preview(alice, { calcId: 'roof-quote', draft: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('invalid_request');

    // Only the one load above counted.
    expect(await used(app, alice)).toBe(1);
  });
});

describe('refused calls for an owner’s calculator', () => {
  test('are counted under its id, published or not; made-up ids and others’ ids are not', async () => {
    const clock = manualClock();
    using app = testApp({ now: clock.now, flags: { 'quota-free': 1, 'calculators-free': 10 } });
    const alice = await owner(app);
    const bob = await owner(app);
    await create(app, alice, quote());
    await publish(app, alice, 'roof-quote');
    await create(app, alice, quote({ id: 'draft-quote' }));
    await create(app, bob, quote({ id: 'bobs-quote' }));
    const elsewhere = 'https://elsewhere.example';
    const code = async (res: Promise<{ json: { error?: { code: string } } }>) => (await res).json.error?.code;

    expect(await code(widget(app, 'load', alice.apiKey, 'roof-quote', elsewhere))).toBe('domain_not_registered');
    expect(await code(widget(app, 'verify', alice.apiKey, 'draft-quote', elsewhere))).toBe('domain_not_registered');
    expect(await code(widget(app, 'load', alice.apiKey, 'later-quote', elsewhere))).toBe('domain_not_registered');
    expect(await code(widget(app, 'load', alice.apiKey, 'bobs-quote', elsewhere))).toBe('domain_not_registered');
    expect(await code(widget(app, 'load', alice.apiKey, 'made-up', elsewhere))).toBe('domain_not_registered');
    expect((await widget(app, 'load', alice.apiKey, 'roof-quote')).status).toBe(200);
    expect(await code(widget(app, 'load', alice.apiKey, 'roof-quote'))).toBe('quota_exceeded');
    // A calculator created after the account's ids were read counts from its creation on.
    await create(app, alice, quote({ id: 'later-quote' }));
    expect(await code(widget(app, 'load', alice.apiKey, 'later-quote', elsewhere))).toBe('domain_not_registered');

    const expected = [
      { date: TODAY, calcId: 'draft-quote', reason: 'domain_not_registered', count: 1 },
      { date: TODAY, calcId: 'later-quote', reason: 'domain_not_registered', count: 1 },
      { date: TODAY, calcId: 'roof-quote', reason: 'domain_not_registered', count: 1 },
      { date: TODAY, calcId: 'roof-quote', reason: 'quota_exceeded', count: 1 },
    ];
    // On PostgreSQL the account's ids arrive after the answer: wait for the counts (or 5 s).
    const refused = async () => (await usage(app, alice)).refused;
    for (const until = Date.now() + 5_000; Date.now() < until; await Bun.sleep(5))
      if (Bun.deepEquals(await refused(), expected)) break;
    expect(await refused()).toEqual(expected);
    await app.flush();
    expect((await usage(app, alice)).refused).toEqual(expected);
    expect((await usage(app, bob)).refused).toEqual([]);
  });
});

describe('funnel reports for an owner’s calculator', () => {
  /** POST /v1/widget/events as a page on SHOP sends it. */
  const report = (app: TestApp, apiKey: string, calcId: string, events: string[]) =>
    app.request('POST', '/v1/widget/events', {
      body: { apiKey, domain: SHOP, calcId, events },
      headers: { 'content-type': 'text/plain;charset=UTF-8', origin: SHOP },
    });

  test('counted under its id once published, like a load; a draft, another’s or a deleted one is 404', async () => {
    using app = testApp({ now: manualClock().now });
    const alice = await owner(app);
    const bob = await owner(app);
    await create(app, alice, quote());
    // Never published: refused as its load is, and counted nowhere.
    const draft = await report(app, alice.apiKey, 'roof-quote', ['view']);
    expect({ status: draft.status, error: draft.json.error }).toEqual({
      status: 404,
      error: { code: 'calculator_not_found', message: 'There is no calculator "roof-quote".' },
    });
    await publish(app, alice, 'roof-quote');
    expect((await report(app, alice.apiKey, 'roof-quote', ['view', 'start'])).status).toBe(204);
    expect((await report(app, alice.apiKey, 'roof-quote', ['complete'])).status).toBe(204);
    // Bob's key does not reach Alice's calculator.
    expect((await report(app, bob.apiKey, 'roof-quote', ['view'])).status).toBe(404);

    const funnel = [{ date: TODAY, calcId: 'roof-quote', domain: SHOP, views: 1, starts: 1, completes: 1, submits: 0 }];
    const alices = await usage(app, alice);
    expect(alices.funnel).toEqual(funnel);
    // Reports are never loads.
    expect(alices.rows).toEqual([]);
    const totals = (await app.request('GET', '/v1/usage/funnel?calcId=roof-quote', { token: alice.token })).json;
    expect(totals.calculators).toEqual([
      {
        calcId: 'roof-quote',
        views: 1,
        starts: 1,
        completes: 1,
        submits: 0,
        rates: { viewToStart: 1, startToComplete: 1, completeToSubmit: 0 },
      },
    ]);
    // Deleted: its reports are refused; the funnel it had stays.
    await remove(app, alice, 'roof-quote');
    expect((await report(app, alice.apiKey, 'roof-quote', ['view'])).status).toBe(404);
    await app.flush();
    expect((await usage(app, alice)).funnel).toEqual(funnel);
    expect((await usage(app, bob)).funnel).toEqual([]);
  });
});
