/**
 * `POST /v1/widget/submit` through the real app: the checks of every widget route and their
 * order, the server's own evaluation, contact and consent rules, the honeypot, page and UTM,
 * the visitor, the monthly allowance with the app's clock, and the `result.submitted` event
 * verified with the `standardwebhooks` package as an owner does. Runs on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Webhook } from 'standardwebhooks';
import { mintContext } from '../../src/security/visitor-context.ts';
import { manualClock } from '../helpers/clock.ts';
import { SHOP_ORIGIN } from '../helpers/owners.ts';
import { type Receiver, startReceiver } from '../helpers/receiver.ts';
import { LEAD_CONFIG, resultsOwner, submission, submit } from '../helpers/results.ts';
import { testApp, type TestApp } from '../helpers/test-app.ts';

/** No per-client limit in the way: these tests send many calls from one address. */
const NO_RATE = { 'rate-widget-per-minute': 0, 'rate-widget-per-day': 0 };

const read = (app: TestApp, token: string, id: string) =>
  app.request('GET', `/v1/results/${id}`, { token }).then((r) => r.json.result);

let receiver: Receiver;
beforeAll(() => {
  receiver = startReceiver();
});
afterAll(() => receiver.stop());

describe('the checks, in order', () => {
  test('body → key → Origin → domain → calculator → results on; each refusal stores nothing', async () => {
    using app = testApp({ flags: NO_RATE });
    const owner = await resultsOwner(app);
    const ok = submission(owner);
    const cases: [string, unknown, Record<string, string>, number, string][] = [
      ['not JSON', '{broken', {}, 400, 'invalid_request'],
      ['no apiKey', { ...ok, apiKey: undefined }, {}, 400, 'invalid_request'],
      ['inputs not an object', { ...ok, inputs: [80, 180] }, {}, 400, 'invalid_request'],
      ['unknown key', { ...ok, apiKey: 'pk_unknown000000000000000000' }, {}, 401, 'invalid_api_key'],
      [
        'unknown key, other origin',
        { ...ok, apiKey: 'pk_x' },
        { origin: 'https://evil.example' },
        401,
        'invalid_api_key',
      ],
      ['Origin not the domain', ok, { origin: 'https://evil.example' }, 403, 'origin_mismatch'],
      ['domain not registered', { ...ok, domain: 'https://other.example' }, {}, 403, 'domain_not_registered'],
      ['no such calculator', { ...ok, calcId: 'nope' }, {}, 404, 'calculator_not_found'],
      ['results not on for it', { ...ok, calcId: 'mortgage' }, {}, 403, 'results_disabled'],
      ['results not on, inputs bad too', { ...ok, calcId: 'mortgage', inputs: {} }, {}, 403, 'results_disabled'],
    ];
    for (const [name, body, headers, status, code] of cases) {
      const answer = await submit(app, body, headers);
      expect({ name, status: answer.status, code: answer.json?.error?.code }).toEqual({ name, status, code });
      expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    }
    expect(await app.count('results')).toBe(0);
  });

  test('the per-client limit counts submits in the widget routes’ bucket', async () => {
    using app = testApp({ flags: { 'rate-widget-per-minute': 2, 'rate-widget-per-day': 0 }, now: manualClock().now });
    const owner = await resultsOwner(app);
    const load = { apiKey: owner.apiKey, domain: SHOP_ORIGIN, calcId: 'bmi' };
    expect((await app.request('POST', '/v1/widget/load', { body: load })).status).toBe(200);
    expect((await submit(app, submission(owner))).status).toBe(202);
    const third = await submit(app, submission(owner));
    expect([third.status, third.json.error.code]).toEqual([429, 'rate_limited']);
    expect(third.headers.get('retry-after')).toBeTruthy();
    expect(await app.count('results')).toBe(1);
  });

  test('results off after a downgrade to Free: 403 results_disabled', async () => {
    using app = testApp({ flags: NO_RATE });
    const owner = await resultsOwner(app);
    await app.accounts.setPlan(owner.id, 'free');
    const answer = await submit(app, submission(owner));
    expect([answer.status, answer.json.error.code]).toEqual([403, 'results_disabled']);
  });
});

describe("an owner's own calculator", () => {
  test('results on for a published one: the load offers them, the server computes from the published version', async () => {
    using app = testApp({ flags: NO_RATE });
    const owner = await resultsOwner(app, { calcIds: [] });
    const created = await app.request('POST', '/v1/account/calculators', {
      token: owner.token,
      body: { from: 'bmi', id: 'gym-bmi' },
    });
    expect(created.status).toBe(201);
    // Unpublished: nothing visitors can load, so nothing to send a result from.
    const early = await submit(app, submission(owner, { calcId: 'gym-bmi' }));
    expect([early.status, early.json.error.code]).toEqual([404, 'calculator_not_found']);
    const published = await app.request('POST', '/v1/account/calculators/gym-bmi/publish', { token: owner.token });
    expect(published.status).toBe(200);
    const saved = await app.request('PUT', '/v1/widget-config/gym-bmi', {
      token: owner.token,
      body: { config: { results: LEAD_CONFIG } },
    });
    expect(saved.status).toBe(200);
    const load = await app.request('POST', '/v1/widget/load', {
      body: { apiKey: owner.apiKey, domain: SHOP_ORIGIN, calcId: 'gym-bmi' },
    });
    expect(load.status).toBe(200);
    expect(load.json.results.contact).toEqual(LEAD_CONFIG.contact);
    const sent = await submit(app, submission(owner, { calcId: 'gym-bmi' }));
    expect(sent.status).toBe(202);
    const listed = await app.request('GET', '/v1/results', { token: owner.token });
    expect(listed.json.results.map((r: { calcId: string }) => r.calcId)).toEqual(['gym-bmi']);
    const kept = await read(app, owner.token, listed.json.results[0].id);
    expect(kept.outputs.bmi).toBeCloseTo(24.69, 2);
  });
});

describe('what is stored', () => {
  test('202 once stored: inputs as checked, outputs computed by the server (the page’s ignored), contact, consent, page, UTM, prefill', async () => {
    const clock = manualClock(Date.parse('2026-03-14T09:26:53.412Z'));
    using app = testApp({ flags: NO_RATE, now: clock.now });
    const owner = await resultsOwner(app);
    const answer = await submit(
      app,
      submission(owner, {
        outputs: { bmi: 12 },
        locale: 'de-AT',
        contact: { email: '  Jo@Example.NET ', name: 'Jo Bloggs' },
        page: 'https://shop.example/health?utm_source=newsletter&utm_campaign=spring&utm_medium=email&x=1#top',
        sources: { weight: 'webhook', height: 'typed', heightCm: 'guess', notAnInput: 'typed' },
      }),
    );
    expect(answer.status).toBe(202);
    expect(answer.json.id).toMatch(/^res_[A-Za-z0-9]{20}$/);
    const result = await read(app, owner.token, answer.json.id);
    expect(result).toEqual({
      id: answer.json.id,
      calcId: 'bmi',
      domain: SHOP_ORIGIN,
      createdAt: '2026-03-14T09:26:53.412Z',
      units: 'metric',
      inputs: { weightKg: 80, heightCm: 180 },
      outputs: { bmi: 80 / 1.8 ** 2 },
      contact: { email: 'Jo@Example.NET', name: 'Jo Bloggs' },
      visitor: null,
      page: 'https://shop.example/health?utm_source=newsletter&utm_campaign=spring&utm_medium=email&x=1',
      utm: { source: 'newsletter', medium: 'email', campaign: 'spring' },
      prefill: { weight: 'webhook', height: 'typed' },
      consent: { text: LEAD_CONFIG.consentText.de, locale: 'de', at: '2026-03-14T09:26:53.412Z' },
    });
  });

  test('imperial units through the display aliases: kept in the canonical units, computed in the shown system', async () => {
    using app = testApp({ flags: NO_RATE });
    const owner = await resultsOwner(app);
    const answer = await submit(app, submission(owner, { units: 'imperial', inputs: { weight: 176, height: 70 } }));
    expect(answer.status).toBe(202);
    const result = await read(app, owner.token, answer.json.id);
    expect(result.units).toBe('imperial');
    expect(result.inputs.weightKg).toBeCloseTo(176 * 0.45359237, 10);
    expect(result.inputs.heightCm).toBeCloseTo(70 * 2.54, 10);
    expect(result.outputs.bmi).toBeCloseTo((176 * 0.45359237) / (0.7 * 2.54) ** 2, 10);
  });

  test('a hidden input is not kept, whatever was sent; a shown one is required', async () => {
    using app = testApp({ flags: NO_RATE });
    const owner = await resultsOwner(app, { config: { enabled: true }, calcIds: ['body-fat'] });
    // The hip is asked for women only (visibleIf sex = female).
    const lengths = { height: 180, neck: 38, waist: 85, hip: 95 };
    const send = (inputs: Record<string, unknown>) => submit(app, { ...submission(owner), calcId: 'body-fat', inputs });
    const male = await send({ sex: 'male', ...lengths });
    expect(male.status).toBe(202);
    expect((await read(app, owner.token, male.json.id)).inputs).toEqual({
      sex: 'male',
      heightCm: 180,
      neckCm: 38,
      waistCm: 85,
    });
    const female = await send({ sex: 'female', ...lengths });
    expect((await read(app, owner.token, female.json.id)).inputs).toEqual({
      sex: 'female',
      heightCm: 180,
      neckCm: 38,
      waistCm: 85,
      hipCm: 95,
    });
    const noHip = await send({ sex: 'female', height: 180, neck: 38, waist: 85 });
    expect([noHip.status, noHip.json.error.details]).toEqual([
      400,
      [{ field: 'inputs.hipCm', message: 'must be a number from 50 to 200, or hip a number from 50 to 200 (metric)' }],
    ]);
    const badOption = await send({ sex: 'other', ...lengths });
    expect(badOption.json.error.details[0]).toEqual({
      field: 'inputs.sex',
      message: 'must be one of "male", "female"',
    });
  });

  test('a valid context names the visitor (any plan with results); a bad one does not', async () => {
    const clock = manualClock(Date.now());
    using app = testApp({ flags: NO_RATE, now: clock.now });
    const owner = await resultsOwner(app);
    const secret = (await app.request('GET', '/v1/account/signing-secret', { token: owner.token })).json.signingSecret;
    const exp = clock.seconds() + 600;
    const valid = mintContext(secret, { sub: 'cust_42', exp, calc: 'bmi', origin: SHOP_ORIGIN });
    const cases: [string, string | undefined][] = [
      [valid, 'cust_42'],
      [mintContext(secret, { sub: 'cust_42', exp, calc: 'mortgage' }), undefined],
      [mintContext('whsec_notthesecret000000000000000000', { sub: 'cust_42', exp }), undefined],
      ['garbage', undefined],
    ];
    for (const [context, visitor] of cases) {
      const answer = await submit(app, submission(owner, { context }));
      expect(answer.status).toBe(202);
      expect((await read(app, owner.token, answer.json.id)).visitor).toBe(visitor ?? null);
    }
    // Never in the log: the visitor, the contact, the inputs.
    const log = app.logs.join('\n');
    expect(log).not.toContain('cust_42');
    expect(log).not.toContain('jo@example.net');
    expect(log).not.toContain('Jo Bloggs');
  });

  test('a page on another origin, or not a URL, is dropped with its UTM', async () => {
    using app = testApp({ flags: NO_RATE });
    const owner = await resultsOwner(app);
    for (const page of [
      'https://evil.example/?utm_source=x',
      'http://shop.example/?utm_source=x',
      'not a url',
      'x'.repeat(3000),
    ]) {
      const answer = await submit(app, submission(owner, { page }));
      expect(answer.status).toBe(202);
      const result = await read(app, owner.token, answer.json.id);
      expect({ page, stored: result.page, utm: result.utm }).toEqual({ page, stored: null, utm: {} });
    }
  });

  test('contact fields the config does not ask for are dropped; an optional one may be left out', async () => {
    using app = testApp({ flags: NO_RATE });
    const owner = await resultsOwner(app, {
      config: { enabled: true, contact: { email: 'optional', name: 'off' }, consentText: 'Yes' },
    });
    const withName = await submit(app, submission(owner, { contact: { email: 'jo@example.net', name: 'Jo' } }));
    expect((await read(app, owner.token, withName.json.id)).contact).toEqual({ email: 'jo@example.net' });
    const none = await submit(app, submission(owner, { contact: undefined }));
    expect(none.status).toBe(202);
    expect((await read(app, owner.token, none.json.id)).contact).toEqual({});
  });
});

describe('refusals that store nothing', () => {
  test('inputs outside their rules, a missing consent or required contact: 400 with every problem in details', async () => {
    using app = testApp({ flags: NO_RATE });
    const owner = await resultsOwner(app);
    const cases: [string, Record<string, unknown>, string[]][] = [
      ['weight out of range', { inputs: { weight: 2000, height: 180 } }, ['inputs.weightKg']],
      ['height a string', { inputs: { weight: 80, height: '180' } }, ['inputs.heightCm']],
      ['no inputs', { inputs: undefined }, ['inputs.weightKg', 'inputs.heightCm']],
      ['units bmi does not offer', { units: 'nautical' }, ['units']],
      ['no consent', { consent: undefined }, ['consent']],
      ['consent false', { consent: false }, ['consent']],
      ['no email', { contact: { name: 'Jo' } }, ['contact.email']],
      ['blank email', { contact: { email: '   ' } }, ['contact.email']],
      ['not an email', { contact: { email: 'jo at example' } }, ['contact.email']],
      ['control characters in the name', { contact: { email: 'jo@example.net', name: 'Jo\u0000' } }, ['contact.name']],
      [
        'all at once',
        { inputs: { weight: 1 }, consent: false, contact: {} },
        ['inputs.weightKg', 'inputs.heightCm', 'contact.email', 'consent'],
      ],
    ];
    for (const [name, change, fields] of cases) {
      const answer = await submit(app, { ...submission(owner), ...change });
      expect({ name, status: answer.status, code: answer.json.error.code }).toEqual({
        name,
        status: 400,
        code: 'invalid_request',
      });
      if (name !== 'units bmi does not offer')
        expect({ name, fields: answer.json.error.details.map((d: { field: string }) => d.field) }).toEqual({
          name,
          fields,
        });
    }
    expect(await app.count('results')).toBe(0);
    expect(await app.count('results_monthly')).toBe(0);
  });

  test('the honeypot: 202 with an id, stored nowhere, not counted', async () => {
    using app = testApp({ flags: NO_RATE });
    const owner = await resultsOwner(app);
    const caught = await submit(app, submission(owner, { hp: 'https://spam.example' }));
    expect(caught.status).toBe(202);
    expect(caught.json.id).toMatch(/^res_/);
    expect(await app.count('results')).toBe(0);
    expect(await app.count('results_monthly')).toBe(0);
    expect((await app.request('GET', `/v1/results/${caught.json.id}`, { token: owner.token })).status).toBe(404);
    expect((await submit(app, submission(owner, { hp: '' }))).status).toBe(202);
    expect(await app.count('results')).toBe(1);
  });
});

describe('the monthly allowance', () => {
  test('at its boundary: the last one is stored, the next 429 quota_exceeded stores nothing; a new month starts over', async () => {
    const clock = manualClock(Date.parse('2026-03-31T23:59:58.000Z'));
    using app = testApp({ flags: { ...NO_RATE, 'submissions-base': 3 }, now: clock.now });
    const owner = await resultsOwner(app);
    for (let i = 0; i < 3; i++) expect((await submit(app, submission(owner))).status).toBe(202);
    const refused = await submit(app, submission(owner));
    expect([refused.status, refused.json.error.code]).toEqual([429, 'quota_exceeded']);
    expect(refused.json.error.message).toContain('3 submissions');
    expect(await app.count('results')).toBe(3);
    // A refused submission is not a load, nor a refused load.
    clock.advance(2_000);
    expect((await submit(app, submission(owner))).status).toBe(202);
    expect(await app.count('results')).toBe(4);
  });

  test('Extra has its own allowance; concurrent submissions never pass it', async () => {
    using app = testApp({ flags: { ...NO_RATE, 'submissions-extra': 5 } });
    const owner = await resultsOwner(app, { plan: 'extra' });
    const answers = await Promise.all(Array.from({ length: 12 }, () => submit(app, submission(owner))));
    expect(answers.filter((a) => a.status === 202)).toHaveLength(5);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(7);
    expect(await app.count('results')).toBe(5);
  });
});

describe('the funnel', () => {
  test('each 202 that stored a result counts one submit; refusals and the honeypot count none', async () => {
    const clock = manualClock(Date.parse('2026-03-14T09:00:00.000Z'));
    using app = testApp({ flags: { ...NO_RATE, 'submissions-base': 2 }, now: clock.now });
    const owner = await resultsOwner(app, { calcIds: ['bmi', 'tip'] });
    const funnel = async () =>
      (await app.request('GET', '/v1/usage/funnel?from=2026-03-14&to=2026-03-14', { token: owner.token })).json;
    const refusals: [Record<string, unknown>, Record<string, string>, number][] = [
      [{ consent: undefined }, { origin: SHOP_ORIGIN }, 400],
      [{ calcId: 'mortgage' }, { origin: SHOP_ORIGIN }, 403],
      [{}, { origin: 'https://evil.example' }, 403],
      [{ hp: 'https://spam.example' }, { origin: SHOP_ORIGIN }, 202],
    ];
    for (const [change, headers, status] of refusals)
      expect((await submit(app, submission(owner, change), headers)).status).toBe(status);
    expect((await funnel()).total.submits).toBe(0);

    expect((await submit(app, submission(owner))).status).toBe(202);
    expect((await funnel()).total.submits).toBe(1);
    // Counted for its calculator and the page's origin, like the steps the widget reports.
    expect(
      (await submit(app, submission(owner, { calcId: 'tip', inputs: { bill: 50, tipPercent: 15, people: 2 } }))).status,
    ).toBe(202);
    const counted = await funnel();
    expect(counted.total.submits).toBe(2);
    expect(counted.calculators.map((c: { calcId: string; submits: number }) => [c.calcId, c.submits])).toEqual([
      ['bmi', 1],
      ['tip', 1],
    ]);
    // Past the month's allowance: 429, nothing counted; flushed counts stay.
    expect((await submit(app, submission(owner))).status).toBe(429);
    await app.flush();
    const usage = (await app.request('GET', '/v1/usage?from=2026-03-14&to=2026-03-14', { token: owner.token })).json;
    expect(usage.funnel).toEqual([
      { date: '2026-03-14', calcId: 'bmi', domain: SHOP_ORIGIN, views: 0, starts: 0, completes: 0, submits: 1 },
      { date: '2026-03-14', calcId: 'tip', domain: SHOP_ORIGIN, views: 0, starts: 0, completes: 0, submits: 1 },
    ]);
  });
});

describe('the result.submitted event', () => {
  test('queued with the result and delivered signed: verified with standardwebhooks, data = the stored result', async () => {
    const clock = manualClock(Date.now());
    using app = testApp({ flags: NO_RATE, env: { CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.2/32' }, now: clock.now });
    const owner = await resultsOwner(app);
    const saved = await app.request('PUT', '/v1/account/results-endpoint', {
      token: owner.token,
      body: { url: receiver.url('/calc-events') },
    });
    expect(saved.status).toBe(201);
    await app.delivery.start();
    const before = receiver.received.length;
    const answer = await submit(app, submission(owner));
    expect(answer.status).toBe(202);
    const [received] = (await receiver.waitFor(before + 1)).slice(before);
    if (!received) throw new Error('nothing received');
    const event = new Webhook(saved.json.secret).verify(received.body, received.headers) as Record<string, unknown>;
    expect(event).toEqual({
      type: 'result.submitted',
      version: 1,
      id: received.headers['webhook-id'],
      createdAt: expect.any(String),
      data: await read(app, owner.token, answer.json.id),
    });
    expect(() => new Webhook(saved.json.secret).verify(`${received.body} `, received.headers)).toThrow();
  });

  test('no endpoint, or one that does not take result.submitted: no event', async () => {
    using app = testApp({ flags: NO_RATE, env: { CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.2/32' } });
    const owner = await resultsOwner(app);
    expect((await submit(app, submission(owner))).status).toBe(202);
    await app.request('PUT', '/v1/account/results-endpoint', {
      token: owner.token,
      body: { url: receiver.url(), events: ['usage.warning'] },
    });
    expect((await submit(app, submission(owner))).status).toBe(202);
    expect(await app.count('delivery_events')).toBe(0);
    expect(await app.count('results')).toBe(2);
  });
});
