/**
 * The results endpoint and its deliveries through the real app: real endpoints on
 * 127.0.0.2, signatures checked with the `standardwebhooks` package as an owner checks them,
 * the retry schedule walked with the app's clock. Runs on SQLite and on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Webhook } from 'standardwebhooks';
import { manualClock } from '../helpers/clock.ts';
import { type Receiver, startReceiver } from '../helpers/receiver.ts';
import { testApp, type TestApp } from '../helpers/test-app.ts';
import { NOMINAL_WAITS_MS } from '../../src/delivery/schedule.ts';
import { PER_ENDPOINT, RESPONSE_BYTES } from '../../src/delivery/worker.ts';

const ENDPOINT = '/v1/account/results-endpoint';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Names the tests' resolver answers; anything else does not resolve. */
const dns = new Map<string, string[]>();
const resolve = async (hostname: string) => {
  const answers = dns.get(hostname);
  if (!answers) throw new Error(`${hostname} does not resolve`);
  return answers;
};

/** A fresh app whose clock starts at the real time: the library checks timestamps against it. */
function freshApp(options: { timeoutMs?: number } = {}) {
  const clock = manualClock(Date.now());
  const app = testApp({
    env: { CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.2/32' },
    now: clock.now,
    resolve,
    webhookTimeoutMs: options.timeoutMs,
  });
  return { app, clock };
}

async function owner(app: TestApp, plan: 'free' | 'base' | 'extra' = 'base') {
  const account = await app.signup();
  await app.accounts.setPlan(account.id, plan);
  return account;
}

/** Sets the endpoint and answers the secret it was created with. */
async function withEndpoint(app: TestApp, token: string, url: string, events?: string[]): Promise<string> {
  const saved = await app.request('PUT', ENDPOINT, { token, body: events ? { url, events } : { url } });
  expect(saved.status).toBe(201);
  return saved.json.secret as string;
}

/** Runs the delivery loop once over whatever is due and waits for its attempts. */
async function deliverDue(app: TestApp): Promise<void> {
  app.delivery.wake();
  await app.delivery.idle();
}

let receiver: Receiver;
beforeAll(() => {
  receiver = startReceiver();
});
afterAll(() => receiver.stop());

describe('setting the endpoint', () => {
  test('Free is refused (403 plan_required) and nothing is stored; GET answers null', async () => {
    using app = freshApp().app;
    const free = await owner(app, 'free');
    const refused = await app.request('PUT', ENDPOINT, { token: free.token, body: { url: receiver.url() } });
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe('plan_required');
    expect(refused.json.error.message).toContain('calc admin accounts set-plan');
    expect((await app.request('GET', ENDPOINT, { token: free.token })).json).toEqual({ endpoint: null });
    expect(await app.count('results_endpoints')).toBe(0);
    for (const path of [`${ENDPOINT}/test`, `${ENDPOINT}/rotate-secret`, `${ENDPOINT}/deliveries/msg_x/resend`]) {
      const answer = await app.request('POST', path, { token: free.token });
      expect({ path, code: answer.json.error.code }).toEqual({ path, code: 'plan_required' });
    }
    expect((await app.request('GET', ENDPOINT)).status).toBe(401);
  });

  test('the URL is guarded at save exactly like the pull: 422 invalid_webhook_url with the reason, nothing stored', async () => {
    using app = freshApp().app;
    const base = await owner(app);
    dns.set('internal.shop.example', ['198.51.100.7', '10.0.0.5']);
    const cases: [string, string][] = [
      ['ftp://hooks.shop.example/x', 'scheme ftp: is not allowed'],
      ['https://user:pw@hooks.shop.example/x', 'user info'],
      ['https://hooks.shop.example:22/x', 'port 22 is not allowed'],
      ['http://10.1.2.3/x', 'not public'],
      ['http://[::ffff:127.0.0.1]:8080/x', 'not public'],
      ['http://2130706433/x', 'not public'],
      ['http://localhost:8080/x', 'always means this machine'],
      ['https://internal.shop.example/x', 'resolves to an address that is not public'],
      ['https://nowhere.shop.example/x', 'does not resolve'],
    ];
    for (const [url, reason] of cases) {
      const answer = await app.request('PUT', ENDPOINT, { token: base.token, body: { url } });
      expect({ url, status: answer.status, code: answer.json.error.code }).toEqual({
        url,
        status: 422,
        code: 'invalid_webhook_url',
      });
      expect(answer.json.error.message).toContain(reason);
      // The refusal never says what a name resolved to.
      expect(answer.json.error.message).not.toContain('10.0.0.5');
    }
    expect(await app.count('results_endpoints')).toBe(0);
    // Even allowlisted, this machine's own addresses are refused.
    using loopback = testApp({ env: { CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8' }, resolve });
    const own = await owner(loopback);
    const refused = await loopback.request('PUT', ENDPOINT, {
      token: own.token,
      body: { url: 'http://127.0.0.1:8080/x' },
    });
    expect(refused.status).toBe(422);
    expect(refused.json.error.message).toContain("this server's own address");
    const badEvents = await app.request('PUT', ENDPOINT, {
      token: base.token,
      body: { url: receiver.url(), events: ['result.deleted'] },
    });
    expect(badEvents.status).toBe(400);
    expect(badEvents.json.error.code).toBe('invalid_request');
  });

  test('created: 201 with the secret once; GET shows its last four only; saving again keeps it; DELETE removes it', async () => {
    using app = freshApp().app;
    const base = await owner(app);
    const created = await app.request('PUT', ENDPOINT, { token: base.token, body: { url: receiver.url() } });
    expect(created.status).toBe(201);
    const secret: string = created.json.secret;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(created.json.endpoint).toEqual({
      url: receiver.url(),
      events: ['result.submitted', 'usage.warning', 'usage.exhausted'],
      enabled: true,
      secretLast4: secret.slice(-4),
      createdAt: expect.any(String),
    });
    const read = await app.request('GET', ENDPOINT, { token: base.token });
    expect(read.json.endpoint).toEqual(created.json.endpoint);
    expect(read.text).not.toContain(secret.slice(6, 20));
    // Sealed at rest: the database holds no part of it in clear.
    const [row] = await app.sql('SELECT secret FROM results_endpoints');
    expect(String(row?.secret)).toStartWith('v1.');
    expect(String(row?.secret)).not.toContain(secret.slice(6, 20));

    const again = await app.request('PUT', ENDPOINT, {
      token: base.token,
      body: { url: receiver.url('/v2'), events: ['result.submitted'] },
    });
    expect(again.status).toBe(200);
    expect(again.json.secret).toBeUndefined();
    expect(again.json.endpoint).toMatchObject({ url: receiver.url('/v2'), events: ['result.submitted'] });
    expect(again.json.endpoint.secretLast4).toBe(secret.slice(-4));
    expect(app.logs.join('\n')).not.toContain(secret.slice(6));

    expect((await app.request('DELETE', ENDPOINT, { token: base.token })).json).toEqual({ deleted: true });
    expect((await app.request('GET', ENDPOINT, { token: base.token })).json).toEqual({ endpoint: null });
    const missing = await app.request('DELETE', ENDPOINT, { token: base.token });
    expect(missing.status).toBe(404);
    expect(missing.json.error.code).toBe('endpoint_not_found');
    for (const path of [`${ENDPOINT}/test`, `${ENDPOINT}/rotate-secret`])
      expect((await app.request('POST', path, { token: base.token })).json.error.code).toBe('endpoint_not_found');
  });
});

describe('a delivery', () => {
  test('a test event is POSTed as JSON, signed by Standard Webhooks, and the answer says what happened', async () => {
    using app = freshApp().app;
    const base = await owner(app);
    const secret = await withEndpoint(app, base.token, receiver.url());
    const before = receiver.received.length;
    const sent = await app.request('POST', `${ENDPOINT}/test`, { token: base.token });
    expect(sent.status).toBe(200);
    const { eventId, delivery } = sent.json;
    expect(eventId).toMatch(/^msg_[0-9a-z]{24}$/);
    expect(delivery).toMatchObject({ eventId, type: 'test', attempt: 1, status: 200, outcome: 'ok' });
    expect(delivery.response).toBe('{"received":true}');

    const got = receiver.received[before];
    if (!got) throw new Error('nothing arrived');
    expect(got.headers['webhook-id']).toBe(eventId);
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['user-agent']).toStartWith('calc-webhook/');
    // Verified as an owner does, with the convention's own library.
    const verified = new Webhook(secret).verify(got.body, got.headers) as Record<string, unknown>;
    expect(verified).toEqual({
      type: 'test',
      version: 1,
      id: eventId,
      createdAt: expect.any(String),
      data: expect.any(Object),
    });
    // Another secret does not verify it.
    const stranger = (
      await app.request('PUT', ENDPOINT, { token: (await owner(app)).token, body: { url: receiver.url() } })
    ).json.secret as string;
    expect(() => new Webhook(stranger).verify(got.body, got.headers)).toThrow();
  });

  test('after a rotation both secrets sign for 24 hours, then only the new one', async () => {
    const { app, clock } = freshApp();
    using _ = app;
    const base = await owner(app);
    const old = await withEndpoint(app, base.token, receiver.url());
    const rotated = await app.request('POST', `${ENDPOINT}/rotate-secret`, { token: base.token });
    expect(rotated.status).toBe(200);
    const fresh: string = rotated.json.secret;
    expect(fresh).not.toBe(old);
    expect(Date.parse(rotated.json.previousValidUntil) - clock.now().getTime()).toBe(DAY);
    const shown = (await app.request('GET', ENDPOINT, { token: base.token })).json.endpoint;
    expect(shown.secretLast4).toBe(fresh.slice(-4));
    expect(shown.previousSecretValidUntil).toBe(rotated.json.previousValidUntil);

    const during = await app.request('POST', `${ENDPOINT}/test`, { token: base.token });
    const overlap = receiver.received.at(-1);
    if (!overlap) throw new Error('nothing arrived');
    expect(overlap.headers['webhook-id']).toBe(during.json.eventId);
    expect(overlap.headers['webhook-signature']?.split(' ')).toHaveLength(2);
    // An endpoint still holding the old secret and one already on the new one both verify.
    expect(new Webhook(old).verify(overlap.body, overlap.headers)).toMatchObject({ id: during.json.eventId });
    expect(new Webhook(fresh).verify(overlap.body, overlap.headers)).toMatchObject({ id: during.json.eventId });

    clock.advance(DAY + 1000);
    await app.request('POST', `${ENDPOINT}/test`, { token: base.token });
    const after = receiver.received.at(-1);
    if (!after) throw new Error('nothing arrived');
    // A day ahead of the library's clock: compare with what it signs for this message instead.
    const id = after.headers['webhook-id'] ?? '';
    const at = new Date(Number(after.headers['webhook-timestamp']) * 1000);
    expect(after.headers['webhook-signature']).toBe(new Webhook(fresh).sign(id, at, after.body));
    expect((await app.request('GET', ENDPOINT, { token: base.token })).json.endpoint.previousSecretValidUntil).toBe(
      undefined,
    );
  });

  test('the delivery log: one entry per attempt, newest first, the first 1 KiB of the answer, never what was sent', async () => {
    const { app, clock } = freshApp();
    using _ = app;
    const base = await owner(app);
    const big = startReceiver(() => new Response(`${'é'.repeat(3000)}tail`, { status: 202 }));
    try {
      await withEndpoint(app, base.token, big.url());
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        clock.advance(1);
        ids.push((await app.request('POST', `${ENDPOINT}/test`, { token: base.token })).json.eventId);
      }
      const all = await app.request('GET', `${ENDPOINT}/deliveries`, { token: base.token });
      expect(all.status).toBe(200);
      expect(all.json.deliveries.map((d: { eventId: string }) => d.eventId)).toEqual([...ids].reverse());
      expect(all.json.nextCursor).toBeNull();
      for (const delivery of all.json.deliveries) {
        expect(delivery).toMatchObject({ type: 'test', attempt: 1, status: 202, outcome: 'ok' });
        expect(Buffer.byteLength(delivery.response)).toBeLessThanOrEqual(RESPONSE_BYTES + 2);
        expect(delivery.response.startsWith('é'.repeat(500))).toBe(true);
        expect(delivery.response).not.toContain('tail');
      }
      const text = JSON.stringify(all.json);
      for (const sent of ['webhook-signature', 'v1,', 'user-agent', 'calc-webhook']) expect(text).not.toContain(sent);

      // Pages of two follow each other without a gap or a repeat.
      const paged: string[] = [];
      let cursor: string | null = null;
      do {
        const query: string = cursor === null ? '' : `&cursor=${cursor}`;
        const page = await app.request('GET', `${ENDPOINT}/deliveries?limit=2${query}`, { token: base.token });
        expect(page.json.deliveries.length).toBeLessThanOrEqual(2);
        paged.push(...page.json.deliveries.map((d: { eventId: string }) => d.eventId));
        cursor = page.json.nextCursor;
      } while (cursor !== null);
      expect(paged).toEqual([...ids].reverse());
      const one = await app.request('GET', `${ENDPOINT}/deliveries?eventId=${ids[2]}`, { token: base.token });
      expect(one.json.deliveries.map((d: { eventId: string }) => d.eventId)).toEqual([ids[2]]);
      const forged = await app.request('GET', `${ENDPOINT}/deliveries?cursor=bm9wZQ`, { token: base.token });
      expect(forged.status).toBe(400);
      expect((await app.request('GET', `${ENDPOINT}/deliveries?limit=500`, { token: base.token })).status).toBe(400);
      // Another account sees none of them.
      const other = await owner(app);
      expect((await app.request('GET', `${ENDPOINT}/deliveries`, { token: other.token })).json.deliveries).toEqual([]);
    } finally {
      await big.stop();
    }
  });

  test('resend: the same webhook-id and body again, logged as the next attempt', async () => {
    using app = freshApp().app;
    const base = await owner(app);
    const secret = await withEndpoint(app, base.token, receiver.url());
    const { eventId } = (await app.request('POST', `${ENDPOINT}/test`, { token: base.token })).json;
    const first = receiver.received.at(-1);
    await app.delivery.start();
    const count = receiver.received.length;
    const resent = await app.request('POST', `${ENDPOINT}/deliveries/${eventId}/resend`, { token: base.token });
    expect(resent.status).toBe(202);
    expect(resent.json).toEqual({ eventId });
    const [again] = (await receiver.waitFor(count + 1)).slice(count);
    expect(again?.headers['webhook-id']).toBe(eventId);
    expect(again?.body).toBe(first?.body ?? '');
    expect(new Webhook(secret).verify(again?.body ?? '', again?.headers ?? {})).toMatchObject({ id: eventId });
    await app.delivery.idle();
    const log = await app.request('GET', `${ENDPOINT}/deliveries?eventId=${eventId}`, { token: base.token });
    expect(log.json.deliveries.map((d: { attempt: number }) => d.attempt)).toEqual([2, 1]);
    const unknown = await app.request('POST', `${ENDPOINT}/deliveries/msg_nothere/resend`, { token: base.token });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe('event_not_found');
    // Another owner cannot resend it.
    const other = await owner(app);
    await withEndpoint(app, other.token, receiver.url());
    expect(
      (await app.request('POST', `${ENDPOINT}/deliveries/${eventId}/resend`, { token: other.token })).json.error.code,
    ).toBe('event_not_found');
  });

  test('a name that now resolves to a private address is refused at the attempt, and the endpoint is never reached', async () => {
    using app = freshApp().app;
    const base = await owner(app);
    dns.set('hooks.rebind.example', ['127.0.0.2']);
    const port = new URL(receiver.url()).port;
    await withEndpoint(app, base.token, `http://hooks.rebind.example:${port}/events`);
    const count = receiver.received.length;
    dns.set('hooks.rebind.example', ['10.0.0.9']);
    const sent = await app.request('POST', `${ENDPOINT}/test`, { token: base.token });
    expect(sent.json.delivery).toMatchObject({ outcome: 'blocked_address', status: null });
    expect(receiver.received.length).toBe(count);
    dns.set('hooks.rebind.example', ['127.0.0.2']);
    expect((await app.request('POST', `${ENDPOINT}/test`, { token: base.token })).json.delivery.outcome).toBe('ok');
  });
});

describe('retries', () => {
  test('the schedule, step by step: about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then every 10 h until three days; then failed', async () => {
    const { app, clock } = freshApp();
    using _ = app;
    const base = await owner(app);
    const failing = startReceiver(() => new Response('down', { status: 503 }));
    try {
      await withEndpoint(app, base.token, failing.url());
      await app.delivery.start();
      const sent = await app.request('POST', `${ENDPOINT}/test`, { token: base.token });
      expect(sent.json.delivery).toMatchObject({ attempt: 1, status: 503, outcome: 'http_error' });
      const created = clock.now().getTime();
      const next = async () =>
        Number(
          (await app.sql('SELECT next_attempt_at AS n FROM delivery_events WHERE id = ?', sent.json.eventId))[0]?.n,
        );
      const status = async () =>
        String((await app.sql('SELECT status AS s FROM delivery_events WHERE id = ?', sent.json.eventId))[0]?.s);
      const waits: number[] = [];
      let attempts = 1;
      while ((await status()) === 'pending') {
        const due = await next();
        const wait = due - clock.now().getTime();
        waits.push(wait);
        // Not a moment early: a millisecond before it is due, nothing is attempted.
        clock.advance(wait - 1);
        await deliverDue(app);
        expect(failing.received.length).toBe(attempts);
        clock.advance(1);
        await deliverDue(app);
        attempts += 1;
        expect(failing.received.length).toBe(attempts);
        expect(failing.received.at(-1)?.headers['webhook-id']).toBe(sent.json.eventId);
      }
      const nominal = [...NOMINAL_WAITS_MS, ...Array(waits.length).fill(10 * HOUR)].slice(0, waits.length);
      waits.forEach((wait, i) => {
        expect(wait).toBeGreaterThanOrEqual(Math.floor((nominal[i] ?? 0) * 0.9));
        expect(wait).toBeLessThanOrEqual(Math.ceil((nominal[i] ?? 0) * 1.1));
      });
      expect(await status()).toBe('failed');
      // Every attempt fell within three days of the event; the one after would not have.
      expect(clock.now().getTime() - created).toBeLessThanOrEqual(3 * DAY);
      expect(attempts).toBeGreaterThanOrEqual(10);
      expect(attempts).toBeLessThanOrEqual(12);
      const log = await app.request('GET', `${ENDPOINT}/deliveries?limit=200`, { token: base.token });
      expect(log.json.deliveries).toHaveLength(attempts);
      // Failed: no further attempt, however long one waits.
      clock.advance(DAY);
      await deliverDue(app);
      expect(failing.received.length).toBe(attempts);
    } finally {
      await failing.stop();
    }
  });

  test('--delivery-backoff-scale multiplies every wait, and the three-day limit with them', async () => {
    const clock = manualClock(Date.now());
    using app = testApp({
      env: { CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.2/32' },
      flags: { 'delivery-backoff-scale': '0.001' },
      now: clock.now,
    });
    const base = await owner(app);
    const failing = startReceiver(() => new Response('down', { status: 500 }));
    try {
      await withEndpoint(app, base.token, failing.url());
      const sent = await app.request('POST', `${ENDPOINT}/test`, { token: base.token });
      const [row] = await app.sql('SELECT next_attempt_at AS n FROM delivery_events WHERE id = ?', sent.json.eventId);
      const wait = Number(row?.n) - clock.now().getTime();
      expect(wait).toBeGreaterThanOrEqual(4);
      expect(wait).toBeLessThanOrEqual(6);
      // Past 3 days × 0.001 (about 4.3 minutes) the next failure gives the event up.
      clock.advance(5 * 60_000);
      await app.delivery.start();
      await app.delivery.idle();
      const [after] = await app.sql(
        'SELECT status AS s, attempts AS a FROM delivery_events WHERE id = ?',
        sent.json.eventId,
      );
      expect({ status: after?.s, attempts: Number(after?.a) }).toEqual({ status: 'failed', attempts: 2 });
    } finally {
      await failing.stop();
    }
  });

  test('410 Gone stops the event and disables the endpoint; saving it again turns it on and queued events resume', async () => {
    const { app, clock } = freshApp();
    using _ = app;
    const base = await owner(app);
    const gone = startReceiver(() => new Response('gone', { status: 410 }));
    try {
      await withEndpoint(app, base.token, gone.url());
      await app.delivery.start();
      const sent = await app.request('POST', `${ENDPOINT}/test`, { token: base.token });
      expect(sent.json.delivery).toMatchObject({ status: 410, outcome: 'http_error' });
      const shown = (await app.request('GET', ENDPOINT, { token: base.token })).json.endpoint;
      expect(shown.enabled).toBe(false);
      expect(shown.disabledReason).toContain('410 Gone');
      const refused = await app.request('POST', `${ENDPOINT}/test`, { token: base.token });
      expect(refused.status).toBe(409);
      expect(refused.json.error.code).toBe('endpoint_disabled');
      // Events keep queueing while it is off, and are not attempted.
      const queued = await app.events.enqueue(base.id, 'usage.warning', { percent: 80 });
      expect(queued).toMatch(/^msg_/);
      clock.advance(HOUR);
      await deliverDue(app);
      expect(gone.received.length).toBe(1);

      gone.answerWith(() => new Response(null, { status: 204 }));
      const again = await app.request('PUT', ENDPOINT, { token: base.token, body: { url: gone.url() } });
      expect(again.json.endpoint).toMatchObject({ enabled: true });
      expect(again.json.endpoint.disabledReason).toBeUndefined();
      await app.delivery.idle();
      await deliverDue(app);
      // The queued event arrived; the one that met 410 stays stopped.
      expect(gone.ids().slice(1)).toEqual([queued ?? '']);
      const events = await app.sql('SELECT id, status FROM delivery_events ORDER BY created_at');
      expect(events.map((e) => e.status)).toEqual(['failed', 'delivered']);
    } finally {
      await gone.stop();
    }
  });

  test('five days of nothing but failures disable the endpoint; re-enabled by the owner, it delivers what waited', async () => {
    const { app, clock } = freshApp();
    using _ = app;
    const base = await owner(app);
    const flaky = startReceiver(() => new Response('no', { status: 500 }));
    try {
      await withEndpoint(app, base.token, flaky.url());
      await app.delivery.start();
      await app.request('POST', `${ENDPOINT}/test`, { token: base.token });
      const failingSince = (await app.request('GET', ENDPOINT, { token: base.token })).json.endpoint.failingSince;
      expect(failingSince).toBe(clock.now().toISOString());
      // Four days later a new event fails too: still enabled.
      clock.advance(4 * DAY);
      await app.events.enqueue(base.id, 'usage.warning', { percent: 80 });
      await app.delivery.idle();
      expect((await app.request('GET', ENDPOINT, { token: base.token })).json.endpoint.enabled).toBe(true);
      // Past five days: the next failure disables it.
      clock.advance(DAY);
      const waiting = await app.events.enqueue(base.id, 'usage.exhausted', { percent: 100 });
      await app.delivery.idle();
      const shown = (await app.request('GET', ENDPOINT, { token: base.token })).json.endpoint;
      expect(shown).toMatchObject({ enabled: false, failingSince });
      expect(shown.disabledReason).toBe('Every delivery failed for five days.');
      const attempts = flaky.received.length;
      clock.advance(DAY);
      await deliverDue(app);
      expect(flaky.received.length).toBe(attempts);

      flaky.answerWith(() => new Response('ok'));
      const on = await app.request('PUT', ENDPOINT, { token: base.token, body: { url: flaky.url() } });
      expect(on.json.endpoint.enabled).toBe(true);
      expect(on.json.endpoint.failingSince).toBeUndefined();
      await app.delivery.idle();
      await deliverDue(app);
      expect(flaky.ids().slice(attempts)).toContain(waiting ?? '');
      const pending = await app.sql("SELECT count(*) AS n FROM delivery_events WHERE status = 'pending'");
      expect(Number(pending[0]?.n)).toBe(0);
    } finally {
      await flaky.stop();
    }
  });

  test('enabled: false pauses deliveries without losing events', async () => {
    using app = freshApp().app;
    const base = await owner(app);
    await withEndpoint(app, base.token, receiver.url());
    await app.delivery.start();
    const off = await app.request('PUT', ENDPOINT, {
      token: base.token,
      body: { url: receiver.url(), enabled: false },
    });
    expect(off.json.endpoint).toMatchObject({ enabled: false, disabledReason: 'Turned off by the owner.' });
    const count = receiver.received.length;
    const id = await app.events.enqueue(base.id, 'usage.warning', { percent: 80 });
    await deliverDue(app);
    expect(receiver.received.length).toBe(count);
    await app.request('PUT', ENDPOINT, { token: base.token, body: { url: receiver.url() } });
    await receiver.waitFor(count + 1);
    expect(receiver.ids().at(-1)).toBe(id ?? '');
    // Types the endpoint did not choose are not queued at all.
    await app.request('PUT', ENDPOINT, {
      token: base.token,
      body: { url: receiver.url(), events: ['result.submitted'] },
    });
    expect(await app.events.enqueue(base.id, 'usage.warning', { percent: 80 })).toBeNull();
  });
});

describe('hostile endpoints', () => {
  test('one that hangs holds at most its share of workers and delays no other endpoint', async () => {
    using app = freshApp({ timeoutMs: 1500 }).app;
    let open = 0;
    let most = 0;
    const hanging = startReceiver(async () => {
      open += 1;
      most = Math.max(most, open);
      await new Promise((resolve) => setTimeout(resolve, 3000));
      open -= 1;
      return new Response('late');
    });
    try {
      const slow = await owner(app);
      const fine = await owner(app);
      await withEndpoint(app, slow.token, hanging.url());
      await withEndpoint(app, fine.token, receiver.url());
      for (let i = 0; i < 20; i++) await app.events.enqueue(slow.id, 'usage.warning', { i });
      await app.delivery.start();
      await hanging.waitFor(PER_ENDPOINT);
      const count = receiver.received.length;
      const ids: (string | null)[] = [];
      for (let i = 0; i < 10; i++) ids.push(await app.events.enqueue(fine.id, 'usage.warning', { i }));
      await receiver.waitFor(count + 10);
      // Delivered while every attempt at the slow endpoint still hangs.
      expect(open).toBe(PER_ENDPOINT);
      expect(receiver.ids().slice(count).sort()).toEqual((ids as string[]).sort());
      expect(app.delivery.inFlight(slow.id)).toBeLessThanOrEqual(PER_ENDPOINT);
      expect(most).toBeLessThanOrEqual(PER_ENDPOINT);
      expect(hanging.received.length).toBe(PER_ENDPOINT);
    } finally {
      await app.delivery.stop(performance.now() + 5000);
      await hanging.stop();
    }
  });

  test('an 80 MB answer, endless chunks and a redirect: 1 KiB read, the rest cancelled, the redirect not followed', async () => {
    using app = freshApp().app;
    const base = await owner(app);
    let pulled = 0;
    const chunk = new Uint8Array(64 * 1024).fill(97);
    const huge = startReceiver(
      () =>
        new Response(
          new ReadableStream({
            pull(controller) {
              pulled += chunk.byteLength;
              if (pulled > 80 * 1024 * 1024) controller.close();
              else controller.enqueue(chunk);
            },
          }),
          { headers: { 'content-type': 'text/plain' } },
        ),
    );
    const elsewhere = startReceiver();
    try {
      await withEndpoint(app, base.token, huge.url());
      const big = await app.request('POST', `${ENDPOINT}/test`, { token: base.token });
      expect(big.json.delivery).toMatchObject({ outcome: 'ok', status: 200, response: 'a'.repeat(RESPONSE_BYTES) });
      expect(pulled).toBeLessThan(16 * 1024 * 1024);

      let endless = 0;
      huge.answerWith(
        () =>
          new Response(
            new ReadableStream({
              async pull(controller) {
                endless += 1;
                await new Promise((resolve) => setTimeout(resolve, 5));
                controller.enqueue(new TextEncoder().encode('chunk '));
              },
            }),
          ),
      );
      const chunks = await app.request('POST', `${ENDPOINT}/test`, { token: base.token });
      expect(chunks.json.delivery.outcome).toBe('ok');
      expect(chunks.json.delivery.response).toStartWith('chunk chunk');
      expect(Buffer.byteLength(chunks.json.delivery.response)).toBe(RESPONSE_BYTES);
      expect(chunks.json.delivery.durationMs).toBeLessThan(5000);
      const pulledThen = endless;
      expect(pulledThen).toBeGreaterThan(0);

      huge.answerWith(() => new Response(null, { status: 307, headers: { location: elsewhere.url() } }));
      const redirect = await app.request('POST', `${ENDPOINT}/test`, { token: base.token });
      expect(redirect.json.delivery).toMatchObject({ outcome: 'redirect', status: 307 });
      expect(elsewhere.received).toHaveLength(0);
    } finally {
      await huge.stop();
      await elsewhere.stop();
    }
  });
});

test('deleting the account removes its endpoint, its queue and its delivery log', async () => {
  using app = freshApp().app;
  const base = await owner(app);
  await withEndpoint(app, base.token, receiver.url());
  await app.request('POST', `${ENDPOINT}/test`, { token: base.token });
  await app.events.enqueue(base.id, 'usage.warning', { percent: 80 });
  expect(await app.count('delivery_attempts')).toBe(1);
  const deleted = await app.request('DELETE', '/v1/account', { token: base.token, body: { password: base.password } });
  expect(deleted.status).toBe(200);
  for (const table of ['results_endpoints', 'delivery_events', 'delivery_attempts'])
    expect({ table, rows: await app.count(table) }).toEqual({ table, rows: 0 });
});
