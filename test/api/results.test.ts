/**
 * The owner's results routes through the real app: list with filters and cursors, read,
 * delete (with the result's event), CSV and JSON-lines export, retention with the app's
 * clock, and deletion with the account. Runs on SQLite and on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { manualClock } from '../helpers/clock.ts';
import { SHOP_ORIGIN } from '../helpers/owners.ts';
import { type Receiver, startReceiver } from '../helpers/receiver.ts';
import { LEAD_CONFIG, resultsOwner, submission, submit } from '../helpers/results.ts';
import { testApp, type TestApp } from '../helpers/test-app.ts';

const NO_RATE = { 'rate-widget-per-minute': 0, 'rate-widget-per-day': 0 };
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let receiver: Receiver;
beforeAll(() => {
  receiver = startReceiver(() => new Response('no', { status: 500 }));
});
afterAll(() => receiver.stop());

/** An app whose clock the test moves, starting on 10 March 2026, with a results owner on bmi and vat. */
async function withResults() {
  const clock = manualClock(Date.parse('2026-03-10T12:00:00.000Z'));
  const app = testApp({ flags: NO_RATE, now: clock.now, env: { CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.2/32' } });
  const owner = await resultsOwner(app, { calcIds: ['bmi', 'vat'] });
  await app.request('POST', '/v1/domains', { token: owner.token, body: { domain: 'https://blog.shop.example' } });
  return { app, clock, owner };
}

/** Submits and answers the result's id; the clock moves an hour after each. */
async function stored(app: TestApp, clock: ReturnType<typeof manualClock>, body: Record<string, unknown>) {
  const answer = await submit(app, body, {});
  if (answer.status !== 202) throw new Error(`submit failed: ${answer.text}`);
  clock.advance(HOUR);
  return answer.json.id as string;
}

const get = (app: TestApp, token: string, path: string) => app.request('GET', path, { token });

describe('listing', () => {
  test('newest first, a page at a time by cursor; every filter; bad dates and cursors are 400', async () => {
    const { app, clock, owner } = await withResults();
    using _ = app;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(await stored(app, clock, submission(owner, { inputs: { weight: 60 + i, height: 180 } })));
    clock.advance(2 * DAY);
    const vat = await stored(app, clock, {
      ...submission(owner, { contact: { email: 'Ann@Example.net' } }),
      calcId: 'vat',
      domain: 'https://blog.shop.example',
      inputs: { amount: 100, rate: 20, mode: 'net' },
    });
    const all = [vat, ...ids.toReversed()];

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await get(app, owner.token, `/v1/results?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      expect(page.json.results.length).toBeLessThanOrEqual(2);
      seen.push(...page.json.results.map((r: { id: string }) => r.id));
      cursor = page.json.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all);

    const idsOf = async (query: string) =>
      (await get(app, owner.token, `/v1/results?${query}`)).json.results.map((r: { id: string }) => r.id);
    expect(await idsOf('calcId=vat')).toEqual([vat]);
    expect(await idsOf('calcId=bmi')).toEqual(ids.toReversed());
    expect(await idsOf('domain=https://BLOG.shop.example:443')).toEqual([vat]);
    expect(await idsOf('email=ann@example.NET')).toEqual([vat]);
    expect(await idsOf('from=2026-03-12')).toEqual([vat]);
    expect(await idsOf('from=2026-03-10&to=2026-03-10')).toEqual(ids.toReversed());
    expect(await idsOf('to=2026-03-09')).toEqual([]);

    for (const query of [
      'from=2026-02-30',
      'from=2026-03-12&to=2026-03-10',
      'cursor=bm90LWEtY3Vyc29y',
      'limit=0',
      'domain=nope',
    ]) {
      const refused = await get(app, owner.token, `/v1/results?${query}`);
      expect({ query, status: refused.status, code: refused.json.error.code }).toEqual({
        query,
        status: 400,
        code: 'invalid_request',
      });
    }
    expect((await app.request('GET', '/v1/results')).status).toBe(401);
  });

  test("another account's results are not listed, read or deleted", async () => {
    const { app, clock, owner } = await withResults();
    using _ = app;
    const id = await stored(app, clock, submission(owner));
    const stranger = await app.signup();
    expect((await get(app, stranger.token, '/v1/results')).json).toEqual({ results: [], nextCursor: null });
    const read = await get(app, stranger.token, `/v1/results/${id}`);
    expect([read.status, read.json.error.code]).toEqual([404, 'result_not_found']);
    const deleted = await app.request('DELETE', `/v1/results/${id}`, { token: stranger.token });
    expect(deleted.status).toBe(404);
    expect((await get(app, owner.token, `/v1/results/${id}`)).status).toBe(200);
  });
});

describe('deleting', () => {
  test('a result goes with its queued event and that event’s log; a second delete is 404', async () => {
    const { app, clock, owner } = await withResults();
    using _ = app;
    await app.request('PUT', '/v1/account/results-endpoint', { token: owner.token, body: { url: receiver.url() } });
    const keep = await stored(app, clock, submission(owner));
    const id = await stored(app, clock, submission(owner, { contact: { email: 'forget-me@example.net' } }));
    expect(await app.count('delivery_events')).toBe(2);
    const deleted = await app.request('DELETE', `/v1/results/${id}`, { token: owner.token });
    expect(deleted.status).toBe(200);
    expect(deleted.json).toEqual({ id, deleted: true });
    expect(await app.count('delivery_events')).toBe(1);
    const [left] = await app.sql('SELECT payload FROM delivery_events');
    expect(String(left?.payload)).toContain(keep);
    expect(String(left?.payload)).not.toContain('forget-me');
    expect((await get(app, owner.token, `/v1/results/${id}`)).status).toBe(404);
    expect((await app.request('DELETE', `/v1/results/${id}`, { token: owner.token })).status).toBe(404);
  });
});

describe('exporting', () => {
  test('CSV: a column per input and output across calculators, safe in spreadsheets, quoted where needed', async () => {
    const { app, clock, owner } = await withResults();
    using _ = app;
    await stored(app, clock, submission(owner, { contact: { email: 'jo@example.net', name: '=HYPERLINK("x")' } }));
    await stored(app, clock, {
      ...submission(owner, { contact: { email: 'ann@example.net', name: 'Ann, "the" boss' } }),
      calcId: 'vat',
      inputs: { amount: 100, rate: 20, mode: 'net' },
      page: 'https://shop.example/?utm_source=-2%2B3',
    });
    const answer = await get(app, owner.token, '/v1/results/export?format=csv');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(answer.headers.get('content-disposition')).toMatch(/^attachment; filename="results-2026-03-10\.csv"$/);
    const lines = answer.text.split('\r\n');
    expect(lines.at(-1)).toBe('');
    const header = (lines[0] ?? '').split(',');
    expect(header.slice(0, 5)).toEqual(['id', 'createdAt', 'calcId', 'domain', 'units']);
    // bmi's canonical inputs, then vat's, in each definition's order; outputs likewise.
    const inputs = header.filter((h) => h.startsWith('input.'));
    const outputs = header.filter((h) => h.startsWith('output.'));
    expect(inputs.slice(0, 2)).toEqual(['input.weightKg', 'input.heightCm']);
    expect(inputs).toContain('input.amount');
    expect(outputs[0]).toBe('output.bmi');
    expect(outputs.length).toBeGreaterThan(1);
    expect(lines).toHaveLength(4);
    const [vatLine, bmiLine] = [lines[1] ?? '', lines[2] ?? ''];
    expect(vatLine).toContain('"Ann, ""the"" boss"');
    expect(vatLine).toContain(",'-2+3,");
    expect(bmiLine).toContain(`"'=HYPERLINK(""x"")"`);
    expect(bmiLine).toContain(',80,180,');

    const bmiOnly = await get(app, owner.token, '/v1/results/export?format=csv&calcId=bmi');
    const bmiHeader = bmiOnly.text.split('\r\n')[0] ?? '';
    expect(bmiHeader).toEndWith('input.weightKg,input.heightCm,output.bmi,prefill');
  });

  test('JSON lines: one result per line, as GET shows it; filters apply; CSV unless said; another format is 400', async () => {
    const { app, clock, owner } = await withResults();
    using _ = app;
    const ids = [await stored(app, clock, submission(owner)), await stored(app, clock, submission(owner))];
    const answer = await get(app, owner.token, '/v1/results/export?format=jsonl');
    expect(answer.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    const lines = answer.text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((r) => r.id)).toEqual(ids.toReversed());
    expect(lines[0]).toEqual((await get(app, owner.token, `/v1/results/${ids[1]}`)).json.result);
    expect((await get(app, owner.token, '/v1/results/export?format=jsonl&to=2026-03-01')).text).toBe('');
    expect((await get(app, owner.token, '/v1/results/export?format=xml')).status).toBe(400);
    expect((await get(app, owner.token, '/v1/results/export')).headers.get('content-type')).toStartWith('text/csv');
  });

  test('more results than one page of the stream: every one exactly once, in order', async () => {
    const { app, clock, owner } = await withResults();
    using _ = app;
    const count = 1234;
    // Written as the submit route writes them, faster than 1,234 requests.
    const started = Date.parse('2026-03-10T12:00:00.000Z');
    for (let i = 0; i < count; i += 200) {
      const rows = Array.from({ length: Math.min(200, count - i) }, (_, j) => {
        const n = i + j;
        const at = new Date(started + Math.floor(n / 3) * 1000).toISOString();
        return `('res_${String(n).padStart(20, '0')}', '${owner.id}', 'bmi', '${SHOP_ORIGIN}', '${at}', 'metric', '{"weightKg":${60 + (n % 50)},"heightCm":180}', '{"bmi":20}')`;
      });
      await app.sql(
        `INSERT INTO results (id, account_id, calc_id, domain, created_at, units, inputs, outputs) VALUES ${rows.join(',')}`,
      );
    }
    clock.advance(DAY);
    const answer = await get(app, owner.token, '/v1/results/export?format=csv');
    const lines = answer.text.split('\r\n').slice(1, -1);
    expect(lines).toHaveLength(count);
    const ids = lines.map((line) => line.split(',')[0]);
    expect(new Set(ids).size).toBe(count);
    const expected = Array.from({ length: count }, (_, n) => `res_${String(n).padStart(20, '0')}`).toReversed();
    expect(ids).toEqual(expected);
  });
});

describe('retention and the account', () => {
  test('results older than --results-retention-days go at the hourly housekeeping, with their events', async () => {
    const clock = manualClock(Date.parse('2026-03-10T12:00:00.000Z'));
    using app = testApp({
      flags: { ...NO_RATE, 'results-retention-days': 30 },
      now: clock.now,
      env: { CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.2/32' },
    });
    const owner = await resultsOwner(app);
    await app.request('PUT', '/v1/account/results-endpoint', { token: owner.token, body: { url: receiver.url() } });
    const old = await stored(app, clock, submission(owner));
    clock.advance(10 * DAY);
    const recent = await stored(app, clock, submission(owner));
    clock.advance(20 * DAY);
    expect((await app.resultsRetention.run())?.results).toBe(1);
    expect(await app.count('results')).toBe(1);
    expect((await app.sql('SELECT id FROM results')).map((r) => r.id)).toEqual([recent]);
    expect(old).not.toBe(recent);
    expect(await app.count('delivery_events')).toBe(1);
    // At most hourly.
    clock.advance(30 * DAY);
    expect(await app.resultsRetention.run()).not.toBeNull();
    expect(await app.resultsRetention.run()).toBeNull();
    expect(await app.count('results')).toBe(0);
  });

  test('deleting the account deletes its results, configs and counts', async () => {
    const { app, clock, owner } = await withResults();
    using _ = app;
    const other = await resultsOwner(app);
    await stored(app, clock, submission(owner));
    await stored(app, clock, submission(other));
    const gone = await app.request('DELETE', '/v1/account', { token: owner.token, body: { password: owner.password } });
    expect(gone.status).toBe(200);
    expect(await app.count('results WHERE account_id = ?', owner.id)).toBe(0);
    expect(await app.count('results_configs WHERE account_id = ?', owner.id)).toBe(0);
    expect(await app.count('results_monthly WHERE account_id = ?', owner.id)).toBe(0);
    expect(await app.count('results')).toBe(1);
    expect(LEAD_CONFIG.enabled).toBe(true);
  });
});
