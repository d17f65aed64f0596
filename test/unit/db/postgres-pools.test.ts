import { expect, test } from 'bun:test';
import { SQL } from 'bun';
import { sql } from 'drizzle-orm';
import { storesOf } from '../../../src/db/backend.ts';
import { openPostgres } from '../../../src/db/postgres/client.ts';
import { usePostgres } from '../../helpers/postgres.ts';
import { accountRow } from '../../helpers/store-dialects.ts';

const pg = usePostgres();

/** Connections that other sessions hold on the database of `url`. */
async function connections(url: string): Promise<number> {
  const admin = new SQL({ url, max: 1 });
  try {
    const [row] = await admin`SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid()`;
    return (row as { n: number }).n;
  } finally {
    await admin.close();
  }
}

/**
 * The connections once they are `expected`, else what is there after 5 s: a backend of a
 * connection just closed (an earlier count's own) may still be listed for a moment.
 */
async function settledConnections(url: string, expected: number): Promise<number> {
  const deadline = Date.now() + 5000;
  let n = await connections(url);
  while (n !== expected && Date.now() < deadline) {
    await Bun.sleep(50);
    n = await connections(url);
  }
  return n;
}

test('each pool size caps the connections its pool opens, however many queries wait', async () => {
  for (const [pool, widgetPool] of [
    [2, 1],
    [5, 3],
  ] as const) {
    // A database of its own per round: the last round's closed connections are not counted.
    const url = await pg().createDatabase();
    const opened = await openPostgres(url, { pool, widgetPool });
    try {
      // Each query holds its connection for a while, so waiting ones need another.
      const sleeps = (client: SQL) => Array.from({ length: 12 }, () => client`SELECT pg_sleep(0.05)`);
      await Promise.all(sleeps(opened.db.$client));
      expect(await settledConnections(url, pool)).toBe(pool);
      await Promise.all(sleeps(opened.widget));
      expect(await settledConnections(url, pool + widgetPool)).toBe(pool + widgetPool);
    } finally {
      await opened.close();
    }
  }
}, 30_000);

test('widget lookups are answered while every other connection waits on a lock', async () => {
  const url = await pg().createDatabase();
  const opened = await openPostgres(url, { pool: 2, widgetPool: 1 });
  const holder = new SQL({ url, max: 1 });
  try {
    const stores = storesOf(opened);
    await stores.accounts.insert(accountRow('a1'));
    // Another session holds a lock; two transactions of this server wait for it, holding
    // both of its general connections, as sign-ins waiting on a busy address would.
    const held = await holder.reserve();
    await held`SELECT pg_advisory_lock(42)`;
    const waiting = [1, 2].map(() => opened.db.transaction((tx) => tx.execute(sql`SELECT pg_advisory_xact_lock(42)`)));
    const blocked = async () => {
      const [row] = await held`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`;
      return (row as { n: number }).n;
    };
    // Wait until both are queued on the lock (each check is a round trip).
    while ((await blocked()) < 2);
    const lookup = await stores.accounts.widgetLookup('pk_a1', ['https://shop.example'], '2026-01-01T00:00:00.000Z');
    expect(lookup?.account.id).toBe('a1');
    expect(await blocked()).toBe(2);
    await held`SELECT pg_advisory_unlock(42)`;
    held.release();
    await Promise.all(waiting);
  } finally {
    await holder.close();
    await opened.close();
  }
}, 30_000);
