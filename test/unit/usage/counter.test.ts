import { expect, test } from 'bun:test';
import { join } from 'node:path';
import { openDatabase } from '../../../src/db/client.ts';
import { createUsageStore } from '../../../src/db/usage-store.ts';
import {
  createUsageCounter,
  dayOf,
  periodOf,
  quotaThresholdCrossed,
  type ThresholdCrossing,
} from '../../../src/usage/counter.ts';
import { MAX_DAY_DOMAINS } from '../../../src/usage/day-totals.ts';
import { tempDir } from '../../helpers/temp-dir.ts';

function setup() {
  const dir = tempDir();
  const database = openDatabase(join(dir.path, 'data'));
  for (const id of ['a1', 'a2'])
    database.sqlite.run(
      `INSERT INTO accounts (id, email, password_hash, plan, api_key, created_at) VALUES ('${id}', '${id}@x.example', 'h', 'free', 'pk_${id}', '2026-01-01T00:00:00Z')`,
    );
  const store = createUsageStore(database.db);
  return {
    database,
    store,
    [Symbol.dispose]: () => {
      database.close();
      dir[Symbol.dispose]();
    },
  };
}

const SHOP = 'https://shop.example';
const BLOG = 'https://blog.example';

test('periodOf is the UTC calendar month', async () => {
  expect(periodOf(new Date('2026-03-31T23:30:00-02:00'))).toBe('2026-04');
  expect(periodOf(new Date('2026-12-31T23:59:59Z'))).toBe('2026-12');
});

test('dayOf is the UTC day, on both sides of midnight and before 1970', async () => {
  expect(dayOf(new Date('2026-03-31T23:59:59.999Z'))).toBe('2026-03-31');
  expect(dayOf(new Date('2026-04-01T00:00:00.000Z'))).toBe('2026-04-01');
  expect(dayOf(new Date('2026-03-31T23:59:59.999Z'))).toBe('2026-03-31');
  expect(dayOf(new Date('2026-03-31T22:30:00-02:00'))).toBe('2026-04-01');
  expect(dayOf(new Date('1969-12-31T12:00:00Z'))).toBe('1969-12-31');
});

test('counts in memory, includes unflushed counts, writes on flush, refuses at the limit', async () => {
  using s = setup();
  const counter = createUsageCounter(s.store);
  expect(await counter.tryCount('a1', '2026-05-02', 2, 'bmi', SHOP)).toBe('ok');
  expect(await counter.tryCount('a1', '2026-05-02', 2, 'bmi', SHOP)).toBe('ok');
  expect(await counter.tryCount('a1', '2026-05-02', 2, 'bmi', SHOP)).toBe('quota_exceeded');
  expect(await counter.used('a1', '2026-05')).toBe(2);
  expect(await s.store.loads('a1', '2026-05')).toBe(0);
  await counter.flush();
  expect(await s.store.loads('a1', '2026-05')).toBe(2);
  await counter.flush();
  expect(await s.store.loads('a1', '2026-05')).toBe(2);
  expect(await s.store.dailyLoads('a1', '2026-05-01', '2026-05-31')).toEqual([
    { date: '2026-05-02', calcId: 'bmi', domain: SHOP, loads: 2 },
  ]);
});

test('each load counts on its day, calculator and origin; refused loads count nowhere', async () => {
  using s = setup();
  const counter = createUsageCounter(s.store);
  await counter.tryCount('a1', '2026-05-31', 10, 'bmi', SHOP);
  await counter.tryCount('a1', '2026-05-31', 10, 'bmi', BLOG);
  await counter.tryCount('a1', '2026-05-31', 10, 'tip', SHOP);
  await counter.tryCount('a1', '2026-06-01', 10, 'bmi', SHOP);
  await counter.tryCount('a2', '2026-05-31', 0, 'bmi', SHOP);
  expect(counter.pendingLoads('a1', '2026-05-31', '2026-05-31').length).toBe(3);
  expect(counter.pendingLoads('a2', '2026-05-01', '2026-06-30')).toEqual([]);
  await counter.flush();
  expect(counter.pendingLoads('a1', '2026-05-01', '2026-06-30')).toEqual([]);
  expect(await s.store.dailyLoads('a1', '2026-05-01', '2026-06-30')).toEqual([
    { date: '2026-05-31', calcId: 'bmi', domain: BLOG, loads: 1 },
    { date: '2026-05-31', calcId: 'bmi', domain: SHOP, loads: 1 },
    { date: '2026-05-31', calcId: 'tip', domain: SHOP, loads: 1 },
    { date: '2026-06-01', calcId: 'bmi', domain: SHOP, loads: 1 },
  ]);
  expect(await s.store.loads('a1', '2026-05')).toBe(3);
  expect(await s.store.loads('a1', '2026-06')).toBe(1);
  expect(await s.store.dailyLoads('a2', '2026-05-01', '2026-06-30')).toEqual([]);
});

test('webhook calls count by day, calculator and outcome, in the same flush', async () => {
  using s = setup();
  const counter = createUsageCounter(s.store);
  counter.countCall('a1', '2026-05-02', 'bmi', 'ok');
  counter.countCall('a1', '2026-05-02', 'bmi', 'ok');
  counter.countCall('a1', '2026-05-02', 'bmi', 'timeout');
  expect(counter.pendingCalls('a1', '2026-05-01', '2026-05-31')).toContainEqual({
    date: '2026-05-02',
    calcId: 'bmi',
    outcome: 'ok',
    calls: 2,
  });
  expect(counter.pendingCalls('a1', '2026-05-03', '2026-05-31')).toEqual([]);
  await counter.flush();
  counter.countCall('a1', '2026-05-02', 'bmi', 'ok');
  await counter.flush();
  expect(await s.store.dailyCalls('a1', '2026-05-01', '2026-05-31')).toEqual([
    { date: '2026-05-02', calcId: 'bmi', outcome: 'ok', calls: 3 },
    { date: '2026-05-02', calcId: 'bmi', outcome: 'timeout', calls: 1 },
  ]);
});

test('a flush that fails keeps every count pending, and the next one writes them once', async () => {
  using s = setup();
  let fail = true;
  const counter = createUsageCounter({
    loads: s.store.loads,
    loadsOnDay: s.store.loadsOnDay,
    async addAll(deltas) {
      if (fail) throw new Error('disk full');
      await s.store.addAll(deltas);
    },
  });
  await counter.tryCount('a1', '2026-05-02', 10, 'bmi', SHOP);
  counter.countCall('a1', '2026-05-02', 'bmi', 'ok');
  await expect(counter.flush()).rejects.toThrow('disk full');
  expect(await counter.used('a1', '2026-05')).toBe(1);
  await counter.tryCount('a1', '2026-05-02', 10, 'bmi', SHOP);
  fail = false;
  await counter.flush();
  expect(await s.store.loads('a1', '2026-05')).toBe(2);
  expect((await s.store.dailyLoads('a1', '2026-05-02', '2026-05-02'))[0]?.loads).toBe(2);
  expect((await s.store.dailyCalls('a1', '2026-05-02', '2026-05-02'))[0]?.calls).toBe(1);
});

test('a transaction: when one row cannot be written, none of the flush is', async () => {
  using s = setup();
  const counter = createUsageCounter(s.store);
  await counter.tryCount('a1', '2026-05-02', 10, 'bmi', SHOP);
  const deltas = counter.deltas();
  // A row the table refuses (NULL in a NOT NULL column) after valid ones.
  deltas.calls.push({
    accountId: 'a1',
    day: '2026-05-02',
    calcId: 'bmi',
    outcome: null as unknown as 'ok',
    calls: 1,
  });
  await expect(s.store.addAll(deltas)).rejects.toThrow();
  expect(await s.store.loads('a1', '2026-05')).toBe(0);
  expect(await s.store.dailyLoads('a1', '2026-05-01', '2026-05-31')).toEqual([]);
});

test("a deleted account's pending counts are dropped without holding back anyone else's", async () => {
  using s = setup();
  const counter = createUsageCounter(s.store);
  await counter.tryCount('a1', '2026-05-02', 10, 'bmi', SHOP);
  await counter.tryCount('a2', '2026-05-02', 10, 'bmi', SHOP);
  counter.countCall('a2', '2026-05-02', 'bmi', 'ok');
  s.database.sqlite.run("DELETE FROM accounts WHERE id = 'a2'");
  await counter.flush();
  expect(await s.store.loads('a1', '2026-05')).toBe(1);
  expect((await s.store.dailyLoads('a1', '2026-05-02', '2026-05-02'))[0]?.loads).toBe(1);
  expect(s.database.sqlite.query("SELECT count(*) AS n FROM usage_daily WHERE account_id = 'a2'").get()).toEqual({
    n: 0,
  });
});

test('deleting an account deletes its per-day rows', async () => {
  using s = setup();
  const counter = createUsageCounter(s.store);
  await counter.tryCount('a2', '2026-05-02', 10, 'bmi', SHOP);
  counter.countCall('a2', '2026-05-02', 'bmi', 'ok');
  await counter.flush();
  s.database.sqlite.run("DELETE FROM accounts WHERE id = 'a2'");
  expect(await s.store.dailyLoads('a2', '2026-05-01', '2026-05-31')).toEqual([]);
  expect(await s.store.dailyCalls('a2', '2026-05-01', '2026-05-31')).toEqual([]);
});

test('a new counter starts from what is stored (restart)', async () => {
  using s = setup();
  const first = createUsageCounter(s.store);
  for (let i = 0; i < 5; i++) await first.tryCount('a1', '2026-05-02', 100, 'bmi', SHOP);
  await first.flush();
  const second = createUsageCounter(s.store);
  expect(await second.used('a1', '2026-05')).toBe(5);
  expect(await second.tryCount('a1', '2026-05-03', 5, 'bmi', SHOP)).toBe('quota_exceeded');
});

test('prune forgets flushed old months but keeps unflushed counts', async () => {
  using s = setup();
  const counter = createUsageCounter(s.store);
  await counter.tryCount('a1', '2026-04-30', 10, 'bmi', SHOP);
  counter.prune('2026-05');
  await counter.flush();
  expect(await s.store.loads('a1', '2026-04')).toBe(1);
  expect((await s.store.dailyLoads('a1', '2026-04-30', '2026-04-30'))[0]?.loads).toBe(1);
});

test('pruneBefore deletes per-day rows dated before the cut-off day only', async () => {
  using s = setup();
  const counter = createUsageCounter(s.store);
  for (const day of ['2025-03-01', '2025-03-02', '2025-03-03']) {
    await counter.tryCount('a1', day, 10, 'bmi', SHOP);
    counter.countCall('a1', day, 'bmi', 'ok');
  }
  await counter.flush();
  expect(await s.store.pruneBefore('2025-03-02')).toEqual({ loads: 1, calls: 1, refused: 0, skipped: 0, funnel: 0 });
  expect((await s.store.dailyLoads('a1', '2025-01-01', '2025-12-31')).map((row) => row.date)).toEqual([
    '2025-03-02',
    '2025-03-03',
  ]);
  expect((await s.store.dailyCalls('a1', '2025-01-01', '2025-12-31')).map((row) => row.date)).toEqual([
    '2025-03-02',
    '2025-03-03',
  ]);
  // Monthly totals (the quota's history) are not per-day rows and stay.
  expect(await s.store.loads('a1', '2025-03')).toBe(3);
});

test('the load that reaches the limit calls onLimitReached once, before it is answered', async () => {
  using s = setup();
  let calls = 0;
  const counter = createUsageCounter(s.store, async () => {
    calls += 1;
    await counter.flush();
  });
  expect(await counter.tryCount('a1', '2026-05-02', 3, 'bmi', SHOP)).toBe('ok');
  expect(await counter.tryCount('a1', '2026-05-02', 3, 'bmi', SHOP)).toBe('ok');
  expect(calls).toBe(0);
  expect(await counter.tryCount('a1', '2026-05-02', 3, 'bmi', SHOP)).toBe('ok');
  expect(calls).toBe(1);
  expect(await s.store.loads('a1', '2026-05')).toBe(3);
  expect(await counter.tryCount('a1', '2026-05-02', 3, 'bmi', SHOP)).toBe('quota_exceeded');
  expect(calls).toBe(1);
  expect(counter.deltas()).toEqual({ monthly: [], loads: [], calls: [], refused: [], skipped: [], funnel: [] });
});

test('during a long outage pending per-day keys stop at the cap: months stay exact, the rest is reported, then written', async () => {
  using s = setup();
  let down = true;
  const reports: { loads: number; calls: number; refused: number; skipped: number; funnel: number; cap: number }[] = [];
  const counter = createUsageCounter(
    {
      loads: s.store.loads,
      loadsOnDay: s.store.loadsOnDay,
      async addAll(deltas) {
        if (down) throw new Error('database unreachable');
        await s.store.addAll(deltas);
      },
    },
    () => {},
    { maxPendingDayKeys: 3, onDropped: (dropped) => reports.push(dropped) },
  );
  // Three days of one calculator fill the cap; more loads on them still count per day.
  for (const day of ['2026-05-01', '2026-05-02', '2026-05-03', '2026-05-03'])
    await counter.tryCount('a1', day, 100, 'bmi', SHOP);
  await expect(counter.flush()).rejects.toThrow('database unreachable');
  expect(reports).toEqual([]);
  // New keys past the cap: the loads count for the month, not per day; a call likewise.
  await counter.tryCount('a1', '2026-05-04', 100, 'bmi', SHOP);
  await counter.tryCount('a2', '2026-05-04', 100, 'bmi', BLOG);
  counter.countCall('a1', '2026-05-04', 'bmi', 'ok');
  expect(counter.deltas().loads).toHaveLength(3);
  expect(counter.deltas().calls).toHaveLength(0);
  expect(await counter.used('a1', '2026-05')).toBe(5);
  expect(await counter.used('a2', '2026-05')).toBe(1);
  await expect(counter.flush()).rejects.toThrow('database unreachable');
  // Reported once, at the next flush attempt, and not again without new losses.
  expect(reports).toEqual([{ loads: 2, calls: 1, refused: 0, skipped: 0, funnel: 0, cap: 3 }]);
  await expect(counter.flush()).rejects.toThrow('database unreachable');
  expect(reports).toHaveLength(1);
  // The database returns: everything kept is written once, and there is room again.
  down = false;
  await counter.flush();
  expect(await s.store.loads('a1', '2026-05')).toBe(5);
  expect(await s.store.loads('a2', '2026-05')).toBe(1);
  const days = await s.store.dailyLoads('a1', '2026-05-01', '2026-05-31');
  expect(days.map((d) => [d.date, d.loads]).sort()).toEqual([
    ['2026-05-01', 1],
    ['2026-05-02', 1],
    ['2026-05-03', 2],
  ]);
  await counter.tryCount('a1', '2026-05-04', 100, 'bmi', SHOP);
  expect(counter.deltas().loads).toEqual([
    { accountId: 'a1', day: '2026-05-04', calcId: 'bmi', domain: SHOP, loads: 1 },
  ]);
});

test('quotaThresholdCrossed: the load that reaches 80 % warns, the one that reaches 100 % exhausts, others nothing', () => {
  expect(quotaThresholdCrossed(799, 800, 1000)).toBe('warning');
  expect(quotaThresholdCrossed(800, 801, 1000)).toBeNull();
  expect(quotaThresholdCrossed(998, 999, 1000)).toBeNull();
  expect(quotaThresholdCrossed(999, 1000, 1000)).toBe('exhausted');
  // A jump (other servers' counts read after a flush) crosses as well.
  expect(quotaThresholdCrossed(700, 900, 1000)).toBe('warning');
  expect(quotaThresholdCrossed(700, 1000, 1000)).toBe('exhausted');
  expect(quotaThresholdCrossed(0, 1, 1)).toBe('exhausted');
});

const CAPS = (loadsPerDay: number | null, loadsPerDayPerDomain: number | null) => ({
  loadsPerDay,
  loadsPerDayPerDomain,
});

test('daily caps: N loads a day in all and per origin, the next refused without counting; the next day again', async () => {
  using s = setup();
  const counter = createUsageCounter(s.store);
  const caps = CAPS(3, 2);
  const load = (day: string, domain: string) => counter.tryCount('a1', day, 100, 'bmi', domain, caps);
  expect(await load('2026-05-02', SHOP)).toBe('ok');
  expect(await load('2026-05-02', SHOP)).toBe('ok');
  expect(await load('2026-05-02', SHOP)).toBe('domain_cap');
  expect(await counter.admits('a1', '2026-05-02', 100, SHOP, caps)).toBe('domain_cap');
  expect(await counter.admits('a1', '2026-05-02', 100, BLOG, caps)).toBe('ok');
  expect(await load('2026-05-02', BLOG)).toBe('ok');
  expect(await load('2026-05-02', BLOG)).toBe('day_cap');
  expect(await counter.admits('a1', '2026-05-02', 100, BLOG, caps)).toBe('day_cap');
  expect(await counter.used('a1', '2026-05')).toBe(3);
  // The quota is checked first.
  expect(await counter.tryCount('a1', '2026-05-02', 3, 'bmi', BLOG, caps)).toBe('quota_exceeded');
  expect(await load('2026-05-03', SHOP)).toBe('ok');
  expect(await counter.used('a1', '2026-05')).toBe(4);
  // Without caps, nothing of the day limits a load.
  expect(await counter.tryCount('a1', '2026-05-03', 100, 'bmi', SHOP)).toBe('ok');
});

test('daily caps: a failed flush keeps the day’s counts; another server’s written loads count from the next flush', async () => {
  using s = setup();
  let fail = true;
  const caps = CAPS(5, null);
  const a = createUsageCounter({
    loads: s.store.loads,
    loadsOnDay: s.store.loadsOnDay,
    async addAll(deltas) {
      if (fail) throw new Error('disk full');
      await s.store.addAll(deltas);
    },
  });
  const b = createUsageCounter(s.store);
  expect(await a.tryCount('a1', '2026-05-02', 100, 'bmi', SHOP, caps)).toBe('ok');
  expect(await a.tryCount('a1', '2026-05-02', 100, 'bmi', SHOP, caps)).toBe('ok');
  await expect(a.flush()).rejects.toThrow('disk full');
  fail = false;
  // Server B counts 2 of its own and writes them; A learns of them at its next flush.
  expect(await b.tryCount('a1', '2026-05-02', 100, 'bmi', BLOG, caps)).toBe('ok');
  expect(await b.tryCount('a1', '2026-05-02', 100, 'bmi', BLOG, caps)).toBe('ok');
  await b.flush();
  expect(await a.tryCount('a1', '2026-05-02', 100, 'bmi', SHOP, caps)).toBe('ok');
  await a.flush();
  // 3 of A's and 2 of B's: A has read B's at its flush, so the cap of 5 is reached there.
  expect(await a.admits('a1', '2026-05-02', 100, SHOP, caps)).toBe('day_cap');
  // B last read before A's were written: it lets one more through, and knows after its next flush.
  expect(await b.tryCount('a1', '2026-05-02', 100, 'bmi', BLOG, caps)).toBe('ok');
  await b.flush();
  expect(await b.tryCount('a1', '2026-05-02', 100, 'bmi', BLOG, caps)).toBe('day_cap');
  expect(await s.store.loadsOnDay('a1', '2026-05-02')).toEqual(
    expect.arrayContaining([
      { domain: SHOP, loads: 3 },
      { domain: BLOG, loads: 3 },
    ]),
  );
});

test('refused calls and skipped pulls count by day, calculator and reason, in the same flush and under the same cap', async () => {
  using s = setup();
  const reports: { refused: number; skipped: number }[] = [];
  const counter = createUsageCounter(s.store, () => {}, {
    maxPendingDayKeys: 2,
    onDropped: (dropped) => reports.push(dropped),
  });
  counter.countRefused('a1', '2026-05-02', 'bmi', 'cap_reached');
  counter.countRefused('a1', '2026-05-02', 'bmi', 'cap_reached');
  counter.countRefused('a1', '2026-05-02', 'tip', 'rate_limited');
  counter.countSkipped('a1', '2026-05-02', 'bmi', 'capped');
  // The third new key is past the cap of 2.
  expect(counter.pendingRefused('a1', '2026-05-01', '2026-05-31')).toEqual([
    { date: '2026-05-02', calcId: 'bmi', reason: 'cap_reached', count: 2 },
    { date: '2026-05-02', calcId: 'tip', reason: 'rate_limited', count: 1 },
  ]);
  expect(counter.pendingSkipped('a1', '2026-05-01', '2026-05-31')).toEqual([]);
  await counter.flush();
  expect(reports).toMatchObject([{ refused: 0, skipped: 1 }]);
  counter.countSkipped('a1', '2026-05-02', 'bmi', 'capped');
  counter.countSkipped('a2', '2026-05-02', 'bmi', 'busy');
  await counter.flush();
  expect(await s.store.dailyRefused('a1', '2026-05-01', '2026-05-31')).toEqual([
    { date: '2026-05-02', calcId: 'bmi', reason: 'cap_reached', count: 2 },
    { date: '2026-05-02', calcId: 'tip', reason: 'rate_limited', count: 1 },
  ]);
  expect(await s.store.dailySkipped('a1', '2026-05-01', '2026-05-31')).toEqual([
    { date: '2026-05-02', calcId: 'bmi', reason: 'capped', count: 1 },
  ]);
  expect(await s.store.dailySkipped('a2', '2026-05-01', '2026-05-31')).toEqual([
    { date: '2026-05-02', calcId: 'bmi', reason: 'busy', count: 1 },
  ]);
});

test(`a per-origin cap follows at most ${MAX_DAY_DOMAINS} origins a day: loads from more are refused, not remembered`, async () => {
  using s = setup();
  const counter = createUsageCounter(s.store);
  const perDomain = CAPS(null, 5);
  for (let i = 0; i < MAX_DAY_DOMAINS; i++)
    expect(await counter.tryCount('a1', '2026-05-02', 1_000_000, 'bmi', `https://s${i}.shop.example`, perDomain)).toBe(
      'ok',
    );
  expect(await counter.tryCount('a1', '2026-05-02', 1_000_000, 'bmi', 'https://one-more.shop.example', perDomain)).toBe(
    'domain_cap',
  );
  // Known origins go on to their cap; without a per-origin cap the day is not limited by origins.
  expect(await counter.tryCount('a1', '2026-05-02', 1_000_000, 'bmi', 'https://s0.shop.example', perDomain)).toBe('ok');
  expect(
    await counter.tryCount('a1', '2026-05-02', 1_000_000, 'bmi', 'https://one-more.shop.example', CAPS(1e9, null)),
  ).toBe('ok');
});

test('funnel steps count by day, calculator, origin and step, pending rows side by side, under the same cap', async () => {
  using s = setup();
  let down = true;
  const reports: { funnel: number }[] = [];
  const counter = createUsageCounter(
    {
      loads: s.store.loads,
      loadsOnDay: s.store.loadsOnDay,
      async addAll(deltas) {
        if (down) throw new Error('database unreachable');
        await s.store.addAll(deltas);
      },
    },
    () => {},
    { maxPendingDayKeys: 3, onDropped: (dropped) => reports.push(dropped) },
  );
  counter.countFunnel('a1', '2026-05-02', 'bmi', SHOP, 'view');
  counter.countFunnel('a1', '2026-05-02', 'bmi', SHOP, 'view');
  counter.countFunnel('a1', '2026-05-02', 'bmi', SHOP, 'start');
  counter.countFunnel('a1', '2026-05-02', 'bmi', BLOG, 'submit');
  // A fourth key is past the cap of 3: not counted, reported at the next flush attempt.
  counter.countFunnel('a1', '2026-05-03', 'bmi', SHOP, 'view');
  // Not a load: the month's count is untouched.
  expect(await counter.used('a1', '2026-05')).toBe(0);
  const pending = [
    { date: '2026-05-02', calcId: 'bmi', domain: SHOP, views: 2, starts: 1, completes: 0, submits: 0 },
    { date: '2026-05-02', calcId: 'bmi', domain: BLOG, views: 0, starts: 0, completes: 0, submits: 1 },
  ];
  expect(counter.pendingFunnel('a1', '2026-05-01', '2026-05-31')).toEqual(pending);
  expect(counter.pendingFunnel('a1', '2026-05-03', '2026-05-31')).toEqual([]);
  expect(counter.pendingFunnel('a2', '2026-05-01', '2026-05-31')).toEqual([]);
  // A failed flush keeps every count; the next one writes them once.
  await expect(counter.flush()).rejects.toThrow('database unreachable');
  expect(reports).toMatchObject([{ funnel: 1 }]);
  // Counts on a kept key still add up while the database is away.
  counter.countFunnel('a1', '2026-05-02', 'bmi', SHOP, 'start');
  down = false;
  await counter.flush();
  expect(counter.pendingFunnel('a1', '2026-05-01', '2026-05-31')).toEqual([]);
  expect(await s.store.dailyFunnel('a1', '2026-05-01', '2026-05-31')).toEqual([
    { date: '2026-05-02', calcId: 'bmi', domain: BLOG, views: 0, starts: 0, completes: 0, submits: 1 },
    { date: '2026-05-02', calcId: 'bmi', domain: SHOP, views: 2, starts: 2, completes: 0, submits: 0 },
  ]);
  expect(await s.store.loads('a1', '2026-05')).toBe(0);
});

test('onThreshold: the loads that reach 80 % and 100 % of the quota and a daily cap tell it, once each', async () => {
  using s = setup();
  const crossings: ThresholdCrossing[] = [];
  const counter = createUsageCounter(s.store, () => {}, { onThreshold: (c) => crossings.push(c) });
  for (let i = 0; i < 12; i++) await counter.tryCount('a1', '2026-05-02', 10, 'bmi', SHOP);
  expect(crossings).toEqual([
    { accountId: 'a1', threshold: 'warning', limitKind: 'quota', period: '2026-05', used: 8, limit: 10 },
    { accountId: 'a1', threshold: 'exhausted', limitKind: 'quota', period: '2026-05', used: 10, limit: 10 },
  ]);
  crossings.length = 0;
  for (let i = 0; i < 4; i++) await counter.tryCount('a2', '2026-05-02', 100, 'bmi', BLOG, CAPS(null, 2));
  for (let i = 0; i < 4; i++) await counter.tryCount('a2', '2026-05-02', 100, 'bmi', SHOP, CAPS(3, 2));
  expect(crossings).toEqual([
    {
      accountId: 'a2',
      threshold: 'exhausted',
      limitKind: 'loadsPerDayPerDomain',
      period: '2026-05-02',
      used: 2,
      limit: 2,
      domain: BLOG,
    },
    { accountId: 'a2', threshold: 'exhausted', limitKind: 'loadsPerDay', period: '2026-05-02', used: 3, limit: 3 },
  ]);
});

test("onThreshold: two servers' loads, each under a threshold, cross it together when a flush reads them", async () => {
  using s = setup();
  const seen: Record<'a' | 'b', ThresholdCrossing[]> = { a: [], b: [] };
  const [a, b] = (['a', 'b'] as const).map((name) =>
    createUsageCounter(s.store, () => {}, { onThreshold: (c) => seen[name].push(c) }),
  );
  if (!a || !b) throw new Error('no counters');
  for (const server of [a, b]) {
    for (let i = 0; i < 4; i++) await server.tryCount('a1', '2026-05-02', 10, 'bmi', SHOP);
    for (let i = 0; i < 2; i++) await server.tryCount('a2', '2026-05-02', 100, 'bmi', SHOP, CAPS(4, 3));
  }
  await a.flush();
  expect(seen.a).toEqual([]);
  await b.flush();
  expect(seen.b).toEqual([
    { accountId: 'a1', threshold: 'warning', limitKind: 'quota', period: '2026-05', used: 8, limit: 10 },
    { accountId: 'a2', threshold: 'exhausted', limitKind: 'loadsPerDay', period: '2026-05-02', used: 4, limit: 4 },
    {
      accountId: 'a2',
      threshold: 'exhausted',
      limitKind: 'loadsPerDayPerDomain',
      period: '2026-05-02',
      used: 4,
      limit: 3,
      domain: SHOP,
    },
  ]);
  // Nothing further is crossed: the next flush reads the same counts.
  await b.tryCount('a1', '2026-05-02', 10, 'bmi', SHOP);
  await b.flush();
  expect(seen.b).toHaveLength(3);
});
