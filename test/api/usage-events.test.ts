/**
 * `usage.warning` and `usage.exhausted` through the real app: widget loads cross the plan's
 * quota (80 %, 100 %) or the owner's daily caps, and the events reach a real endpoint on
 * 127.0.0.2, signed as every delivery is. Runs on SQLite and on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { Webhook } from 'standardwebhooks';
import { manualClock } from '../helpers/clock.ts';
import { SHOP_ORIGIN as SHOP } from '../helpers/owners.ts';
import { type Receiver, startReceiver } from '../helpers/receiver.ts';
import { testApp, type TestApp } from '../helpers/test-app.ts';

// Sign-ups hash passwords with argon2: a loaded machine must not turn that into a failure.
setDefaultTimeout(30_000);

const ENDPOINT = '/v1/account/results-endpoint';
const BLOG = 'https://blog.shop.example';
/** The Base plan's monthly quota in these tests: the warning comes at the 8th load. */
const QUOTA = 10;

let receiver: Receiver;
beforeAll(() => {
  receiver = startReceiver();
});
afterAll(() => receiver.stop());

/** The app with a small Base quota; its clock starts at the real time (signatures are checked against it). */
function freshApp(quota = QUOTA) {
  const clock = manualClock(Date.now());
  const app = testApp({
    env: { CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.2/32' },
    flags: { 'quota-base': quota },
    now: clock.now,
  });
  return { app, clock };
}

/** A Base owner with SHOP and BLOG registered and, unless `endpoint` is null, a results endpoint there. */
async function owner(app: TestApp, endpoint: { url: string; events?: string[] } | null = { url: receiver.url() }) {
  const account = await app.signup();
  await app.accounts.setPlan(account.id, 'base');
  for (const domain of [SHOP, BLOG])
    await app.request('POST', '/v1/domains', { token: account.token, body: { domain } });
  let secret = '';
  if (endpoint) {
    const saved = await app.request('PUT', ENDPOINT, { token: account.token, body: endpoint });
    expect(saved.status).toBe(201);
    secret = saved.json.secret;
  }
  return { ...account, secret };
}

const load = (app: TestApp, apiKey: string, domain = SHOP) =>
  app.request('POST', '/v1/widget/load', { body: { apiKey, domain, calcId: 'bmi' }, headers: { origin: domain } });

async function loads(app: TestApp, apiKey: string, n: number, domain = SHOP): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await load(app, apiKey, domain)).status);
  return statuses;
}

/** Waits for the usage events the loads so far crossed to be queued, then delivers what is due. */
async function deliverDue(app: TestApp): Promise<void> {
  await app.flush();
  await app.delivery.start();
  app.delivery.wake();
  await app.delivery.idle();
}

/** The usage events queued for an account, oldest first, as their bodies. */
async function queued(app: TestApp, accountId: string) {
  const rows = await app.sql(
    "SELECT payload FROM delivery_events WHERE account_id = $1 AND type LIKE 'usage.%' ORDER BY created_at, id",
    accountId,
  );
  return rows.map((row) => JSON.parse(String(row.payload)));
}

/** The deliveries received for one account (its id is in every usage event's data). */
const receivedFor = (accountId: string) => receiver.received.filter((r) => r.body.includes(`"${accountId}"`));

const month = (at: Date) => at.toISOString().slice(0, 7);

describe('the plan quota', () => {
  test('the 8th of 10 loads sends one signed usage.warning, the 10th one usage.exhausted, the 11th nothing', async () => {
    const { app, clock } = freshApp();
    using _app = app;
    const base = await owner(app);
    expect(await loads(app, base.apiKey, 7)).toEqual(Array(7).fill(200));
    await deliverDue(app);
    expect(await queued(app, base.id)).toEqual([]);
    expect(receivedFor(base.id)).toHaveLength(0);

    expect((await load(app, base.apiKey)).status).toBe(200);
    await deliverDue(app);
    const [warning] = receivedFor(base.id);
    if (!warning) throw new Error('no warning delivered');
    // Verified as an owner verifies: the convention's library, the secret shown at creation.
    const event = new Webhook(base.secret).verify(warning.body, warning.headers) as Record<string, unknown>;
    expect(event).toEqual({
      type: 'usage.warning',
      version: 1,
      id: warning.headers['webhook-id'],
      createdAt: clock.now().toISOString(),
      data: { accountId: base.id, limitKind: 'quota', month: month(clock.now()), used: 8, limit: QUOTA, percent: 80 },
    });

    expect((await load(app, base.apiKey)).status).toBe(200);
    await deliverDue(app);
    expect(receivedFor(base.id)).toHaveLength(1);
    expect((await load(app, base.apiKey)).status).toBe(200);
    await deliverDue(app);
    const exhausted = receivedFor(base.id)[1];
    if (!exhausted) throw new Error('no usage.exhausted delivered');
    expect(new Webhook(base.secret).verify(exhausted.body, exhausted.headers)).toMatchObject({
      type: 'usage.exhausted',
      data: { accountId: base.id, limitKind: 'quota', month: month(clock.now()), used: 10, limit: QUOTA, percent: 100 },
    });

    const refused = await load(app, base.apiKey);
    expect(refused.json.error.code).toBe('quota_exceeded');
    await deliverDue(app);
    expect(receivedFor(base.id)).toHaveLength(2);
    expect((await queued(app, base.id)).map((e) => e.type).sort()).toEqual(['usage.exhausted', 'usage.warning']);
    // The owner's own figures only: no visitor, page or address in them.
    for (const { body } of receivedFor(base.id)) {
      expect(body).not.toContain(SHOP);
      expect(body).not.toContain('127.0.0');
    }
  });

  test('40 concurrent loads across both thresholds: exactly one usage.warning and one usage.exhausted', async () => {
    const { app } = freshApp(20);
    using _app = app;
    const base = await owner(app);
    const statuses = await Promise.all(Array.from({ length: 40 }, () => load(app, base.apiKey)));
    expect(statuses.filter((s) => s.status === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s.json?.error?.code === 'quota_exceeded')).toHaveLength(20);
    await deliverDue(app);
    const bodies = receivedFor(base.id).map((r) => JSON.parse(r.body));
    expect(bodies.map((b) => [b.type, b.data.used]).sort()).toEqual([
      ['usage.exhausted', 20],
      ['usage.warning', 16],
    ]);
    expect(await app.count('usage_notices WHERE account_id = $1', base.id)).toBe(2);
  });

  test('a new month warns again, and the events are still signed with the endpoint secret', async () => {
    const { app, clock } = freshApp();
    using _app = app;
    const base = await owner(app);
    await loads(app, base.apiKey, 8);
    await deliverDue(app);
    expect(receivedFor(base.id)).toHaveLength(1);

    const now = clock.now();
    const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 0, 0, 5);
    clock.advance(next - now.getTime());
    expect(await loads(app, base.apiKey, 8)).toEqual(Array(8).fill(200));
    await deliverDue(app);
    const [first, second] = receivedFor(base.id);
    if (!first || !second) throw new Error('the second month sent no warning');
    const body = JSON.parse(second.body);
    expect(body.type).toBe('usage.warning');
    expect(body.data).toMatchObject({ month: month(new Date(next)), used: 8, percent: 80 });
    expect(JSON.parse(first.body).data.month).toBe(month(now));
    // The library refuses a timestamp far from the real clock, so the signature is computed
    // as it does, at the timestamp the delivery carries.
    const timestamp = new Date(Number(second.headers['webhook-timestamp']) * 1000);
    expect(timestamp.getTime()).toBe(Math.floor(next / 1000) * 1000);
    expect(second.headers['webhook-signature']).toBe(
      new Webhook(base.secret).sign(second.headers['webhook-id'] ?? '', timestamp, second.body),
    );
  });

  test('without an endpoint nothing is queued and loads go on; one set later in the month is not sent the past crossing', async () => {
    const { app } = freshApp();
    using _app = app;
    const base = await owner(app, null);
    expect(await loads(app, base.apiKey, 9)).toEqual(Array(9).fill(200));
    await deliverDue(app);
    expect(await app.count('delivery_events')).toBe(0);
    expect(await app.count('usage_notices WHERE account_id = $1', base.id)).toBe(1);
    expect(app.logs.filter((line) => JSON.parse(line).level === 'error')).toEqual([]);

    const saved = await app.request('PUT', ENDPOINT, { token: base.token, body: { url: receiver.url() } });
    expect(saved.status).toBe(201);
    expect((await load(app, base.apiKey)).status).toBe(200);
    await deliverDue(app);
    expect((await queued(app, base.id)).map((e) => e.type)).toEqual(['usage.exhausted']);
  });

  test('an endpoint that chose other events gets none of these', async () => {
    const { app } = freshApp();
    using _app = app;
    const base = await owner(app, { url: receiver.url(), events: ['result.submitted', 'usage.exhausted'] });
    await loads(app, base.apiKey, QUOTA);
    await deliverDue(app);
    expect((await queued(app, base.id)).map((e) => e.type)).toEqual(['usage.exhausted']);
  });
});

describe("the owner's daily caps", () => {
  test('reaching loadsPerDay sends one usage.exhausted for the day; the next day sends another', async () => {
    const { app, clock } = freshApp(1000);
    using _app = app;
    const base = await owner(app);
    expect(
      (await app.request('PUT', '/v1/account/limits', { token: base.token, body: { loadsPerDay: 3 } })).status,
    ).toBe(200);
    expect(await loads(app, base.apiKey, 2)).toEqual([200, 200]);
    await deliverDue(app);
    expect(await queued(app, base.id)).toEqual([]);
    expect((await load(app, base.apiKey, BLOG)).status).toBe(200);
    expect((await load(app, base.apiKey)).json.error.code).toBe('cap_reached');
    await deliverDue(app);
    const day = clock.now().toISOString().slice(0, 10);
    const [event] = receivedFor(base.id);
    if (!event) throw new Error('no usage.exhausted delivered');
    expect(new Webhook(base.secret).verify(event.body, event.headers)).toMatchObject({
      type: 'usage.exhausted',
      data: {
        accountId: base.id,
        limitKind: 'loadsPerDay',
        month: day.slice(0, 7),
        day,
        used: 3,
        limit: 3,
        percent: 100,
      },
    });

    clock.advance(24 * 3_600_000);
    expect(await loads(app, base.apiKey, 4)).toEqual([200, 200, 200, 429]);
    await deliverDue(app);
    const days = (await queued(app, base.id)).map((e) => e.data.day);
    expect(days).toEqual([day, clock.now().toISOString().slice(0, 10)]);
  });

  test('reaching loadsPerDayPerDomain names the origin, once a day whatever the origin', async () => {
    const { app } = freshApp(1000);
    using _app = app;
    const base = await owner(app);
    await app.request('PUT', '/v1/account/limits', { token: base.token, body: { loadsPerDayPerDomain: 2 } });
    expect(await loads(app, base.apiKey, 3, BLOG)).toEqual([200, 200, 429]);
    expect(await loads(app, base.apiKey, 3, SHOP)).toEqual([200, 200, 429]);
    await deliverDue(app);
    const events = await queued(app, base.id);
    expect(events.map((e) => [e.type, e.data.limitKind, e.data.domain, e.data.used])).toEqual([
      ['usage.exhausted', 'loadsPerDayPerDomain', BLOG, 2],
    ]);
  });
});
