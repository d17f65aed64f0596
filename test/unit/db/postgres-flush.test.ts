/**
 * A usage flush on PostgreSQL that waits longer than a request's deadline (here: behind a
 * row lock another connection holds) is waited for, not given up on while PostgreSQL
 * still commits it: given up on, its counts would be pending again and added twice.
 */
import { expect, test } from 'bun:test';
import { SQL } from 'bun';
import { storesOf } from '../../../src/db/backend.ts';
import { openPostgres } from '../../../src/db/postgres/client.ts';
import { createUsageCounter } from '../../../src/usage/counter.ts';
import { usePostgres } from '../../helpers/postgres.ts';
import { accountRow } from '../../helpers/store-dialects.ts';

const cluster = usePostgres();

/** Twice the 1.5 s a request waits for PostgreSQL before it answers 503. */
const LOCK_HELD_MS = 3000;

test('a flush held up past the request deadline is written once, and its counts are not added again', async () => {
  const url = await cluster().createDatabase();
  const opened = await openPostgres(url);
  const other = new SQL(url);
  try {
    const stores = storesOf(opened);
    await stores.accounts.insert(accountRow('a1', '2026-11-01T00:00:00.000Z'));
    await stores.usage.addAll({
      monthly: [{ accountId: 'a1', period: '2026-11', loads: 1 }],
      loads: [],
      calls: [],
      refused: [],
      skipped: [],
      funnel: [],
    });
    const counter = createUsageCounter(stores.usage);
    for (let i = 0; i < 5; i++) await counter.tryCount('a1', '2026-11-25', 1000, 'bmi', 'https://a.example');

    let settled = false;
    await other.begin(async (tx) => {
      await tx`SELECT loads FROM usage WHERE account_id = 'a1' FOR UPDATE`;
      const flushed = counter.flush().finally(() => {
        settled = true;
      });
      flushed.catch(() => {});
      // The flush waits on the lock for longer than any request would.
      await Promise.race([flushed, Bun.sleep(LOCK_HELD_MS)]).catch(() => {});
      expect(settled).toBe(false);
    });
    await counter.flush();
    await counter.flush();
    expect(await stores.usage.loads('a1', '2026-11')).toBe(6);
    expect(await counter.used('a1', '2026-11')).toBe(6);
  } finally {
    await other.close();
    await opened.close();
  }
}, 30_000);
