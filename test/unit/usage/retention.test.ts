import { expect, test } from 'bun:test';
import { join } from 'node:path';
import { openDatabase } from '../../../src/db/client.ts';
import { createDomainsStore } from '../../../src/db/domains-store.ts';
import { createUsageStore } from '../../../src/db/usage-store.ts';
import { silentLogger } from '../../../src/logger.ts';
import { createUsageCounter } from '../../../src/usage/counter.ts';
import { createRetention, RETENTION_DAYS } from '../../../src/usage/retention.ts';
import { tempDir } from '../../helpers/temp-dir.ts';

test(`keeps ${RETENTION_DAYS} days of per-day rows and 7 days of pending requests, prunes at most once an hour`, async () => {
  using dir = tempDir();
  const database = openDatabase(join(dir.path, 'data'));
  try {
    database.sqlite.run(
      "INSERT INTO accounts (id, email, password_hash, plan, api_key, created_at) VALUES ('a1', 'a@x.example', 'h', 'free', 'pk_1', '2026-01-01T00:00:00Z')",
    );
    const store = createUsageStore(database.db);
    const counter = createUsageCounter(store);
    // 2026-11-25 minus 400 days is 2025-10-21: that day is kept, the day before goes.
    for (const day of ['2025-10-19', '2025-10-20', '2025-10-21', '2026-11-25']) {
      await counter.tryCount('a1', day, 100, 'bmi', 'https://shop.example');
      counter.countCall('a1', day, 'bmi', 'ok');
      counter.countRefused('a1', day, 'bmi', 'rate_limited');
      counter.countSkipped('a1', day, 'bmi', 'busy');
      counter.countFunnel('a1', day, 'bmi', 'https://shop.example', 'view');
    }
    await counter.flush();
    // Pending requests expire 7 days after they were made; active domains never do.
    const domains = createDomainsStore(database.db);
    for (const [origin, status, createdAt] of [
      ['https://old.example', 'pending', '2026-11-18T10:00:00.000Z'],
      ['https://new.example', 'pending', '2026-11-18T10:00:00.001Z'],
      ['https://shop.example', 'active', '2020-01-01T00:00:00.000Z'],
    ] as const)
      await domains.insert({ accountId: 'a1', origin, status, createdAt });

    let now = new Date('2026-11-25T10:00:00Z');
    const retention = createRetention({ store, domains, now: () => now, logger: silentLogger });
    expect(await retention.run()).toEqual({
      before: '2025-10-21',
      loads: 2,
      calls: 2,
      refused: 2,
      skipped: 2,
      funnel: 2,
      pendingDomains: 1,
    });
    expect((await domains.list('a1')).map((row) => row.origin)).toEqual([
      'https://shop.example',
      'https://new.example',
    ]);
    expect((await store.dailyRefused('a1', '2025-01-01', '2026-12-31')).map((row) => row.date)).toEqual([
      '2025-10-21',
      '2026-11-25',
    ]);
    expect((await store.dailyFunnel('a1', '2025-01-01', '2026-12-31')).map((row) => row.date)).toEqual([
      '2025-10-21',
      '2026-11-25',
    ]);
    const days = async () => (await store.dailyLoads('a1', '2025-01-01', '2026-12-31')).map((row) => row.date);
    expect(await days()).toEqual(['2025-10-21', '2026-11-25']);
    expect((await store.dailyCalls('a1', '2025-01-01', '2026-12-31')).map((row) => row.date)).toEqual([
      '2025-10-21',
      '2026-11-25',
    ]);

    // The next day's cut-off would take 2025-10-21, but not within the hour.
    now = new Date('2026-11-26T00:59:59Z');
    expect(await retention.run()).toEqual({
      before: '2025-10-22',
      loads: 1,
      calls: 1,
      refused: 1,
      skipped: 1,
      funnel: 1,
      pendingDomains: 1,
    });
    await counter.tryCount('a1', '2025-10-22', 100, 'bmi', 'https://shop.example');
    await counter.flush();
    now = new Date('2026-11-26T01:59:58Z');
    expect(await retention.run()).toBeNull();
    expect(await days()).toEqual(['2025-10-22', '2026-11-25']);
    now = new Date('2026-11-26T01:59:59Z');
    expect(await retention.run()).toEqual({
      before: '2025-10-22',
      loads: 0,
      calls: 0,
      refused: 0,
      skipped: 0,
      funnel: 0,
      pendingDomains: 0,
    });
  } finally {
    database.close();
  }
});
