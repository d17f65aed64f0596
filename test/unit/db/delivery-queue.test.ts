/**
 * The delivery queue's stores on both dialects: an event queued inside another write's
 * transaction exists exactly when that write commits; leases give each attempt to one
 * server; a stale lease records nothing.
 */
import { describe, expect, test } from 'bun:test';
import { sql } from 'drizzle-orm';
import { preparedEventIn } from '../../../src/db/delivery-store.ts';
import { addPgEventIn } from '../../../src/db/postgres/delivery-stores.ts';
import { newEvent } from '../../../src/delivery/events.ts';
import { usePostgres } from '../../helpers/postgres.ts';
import { accountRow, DIALECTS, endpointRow, freshStores } from '../../helpers/store-dialects.ts';

const cluster = usePostgres();
const NOW = Date.parse('2026-03-14T09:00:00.000Z');

type Stores = Awaited<ReturnType<typeof freshStores>>;

async function withEndpoint(s: Stores, id: string, events: string[] = ['result.submitted']) {
  await s.accounts.insert(accountRow(id));
  await s.resultsEndpoints.insert(endpointRow(id, events, new Date(NOW).toISOString()));
}

/**
 * Another write and an event in one transaction of the dialect's own (as the submit route
 * writes a result and its event), failing after both when `fail`.
 */
async function writeWithEvent(s: Stores, accountId: string, fail: boolean): Promise<string> {
  const event = newEvent(accountId, 'result.submitted', { result: 1 }, new Date(NOW));
  const boom = new Error('the other write failed');
  const { sqlite, postgres } = s;
  if (sqlite) {
    try {
      const eventIn = preparedEventIn(sqlite.$client);
      sqlite.transaction((tx) => {
        tx.run(sql`UPDATE accounts SET plan = 'base' WHERE id = ${accountId}`);
        expect(eventIn(event, NOW)).toBe(true);
        if (fail) throw boom;
      });
    } catch (error) {
      if (error !== boom) throw error;
    }
  } else if (postgres) {
    await postgres
      .transaction(async (tx) => {
        await tx.execute(sql`UPDATE accounts SET plan = 'base' WHERE id = ${accountId}`);
        expect(await addPgEventIn(tx, event, NOW)).toBe(true);
        if (fail) throw boom;
      })
      .catch((error: unknown) => {
        if (error !== boom) throw error;
      });
  }
  return event.id;
}

for (const dialect of DIALECTS) {
  describe(`delivery queue on ${dialect}`, () => {
    test('an event queued inside another write exists exactly when that write commits', async () => {
      const s = await freshStores(dialect, cluster);
      try {
        await withEndpoint(s, 'a1');
        const rolledBack = await writeWithEvent(s, 'a1', true);
        expect(await s.deliveries.findEvent('a1', rolledBack)).toBeUndefined();
        expect((await s.accounts.findById('a1'))?.plan).toBe('free');
        const committed = await writeWithEvent(s, 'a1', false);
        expect(await s.deliveries.findEvent('a1', committed)).toMatchObject({ status: 'pending', attempts: 0 });
        expect((await s.accounts.findById('a1'))?.plan).toBe('base');
        // Queued only for an endpoint that receives its type; `test` always.
        await s.accounts.insert(accountRow('a2'));
        expect(await s.deliveries.add(newEvent('a2', 'test', {}, new Date(NOW)), NOW)).toBe(false);
        expect(await s.deliveries.add(newEvent('a1', 'usage.warning', {}, new Date(NOW)), NOW)).toBe(false);
        expect(await s.deliveries.add(newEvent('a1', 'test', {}, new Date(NOW)), NOW)).toBe(true);
      } finally {
        await s.close();
      }
    }, 30_000);

    test('a lease gives an event to one server; past it, another takes it, and the first records nothing', async () => {
      const s = await freshStores(dialect, cluster);
      try {
        await withEndpoint(s, 'a1');
        const event = newEvent('a1', 'result.submitted', {}, new Date(NOW));
        await s.deliveries.add(event, NOW);
        const claim = (owner: string, now: number) =>
          s.deliveries.claim({ now, leaseUntil: now + 60_000, owner, limit: 10, skipAccounts: [] });
        const [first] = await claim('a', NOW);
        expect(first?.id).toBe(event.id);
        expect(await claim('b', NOW + 59_999)).toEqual([]);
        // The first server died: its lease runs out and the event is due to another.
        const [second] = await claim('b', NOW + 60_000);
        expect(second?.id).toBe(event.id);
        const log = {
          eventId: event.id,
          attempt: 1,
          accountId: 'a1',
          at: 't',
          outcome: 'ok',
          httpStatus: 200,
          durationMs: 3,
          response: '',
        };
        const done = { eventId: event.id, status: 'delivered' as const, nextAttemptAt: NOW, log };
        expect(await s.deliveries.finish({ ...done, owner: 'a', leaseUntil: NOW + 60_000 })).toBe(false);
        expect(await s.deliveries.finish({ ...done, owner: 'b', leaseUntil: NOW + 120_000 })).toBe(true);
        expect(await s.deliveries.attempts('a1', { limit: 10 })).toHaveLength(1);
        expect(await claim('c', NOW + 500_000)).toEqual([]);

        // A restarted server takes back its own leases at once; accounts at their share are skipped.
        const again = newEvent('a1', 'result.submitted', {}, new Date(NOW));
        await s.deliveries.add(again, NOW);
        expect((await claim('a', NOW)).map((e) => e.id)).toEqual([again.id]);
        expect(await s.deliveries.releaseOwner('a')).toBe(1);
        expect(
          await s.deliveries.claim({ now: NOW, leaseUntil: NOW + 1, owner: 'b', limit: 10, skipAccounts: ['a1'] }),
        ).toEqual([]);
        // A disabled endpoint's events wait.
        await s.resultsEndpoints.disable('a1', 'off');
        expect(await claim('b', NOW)).toEqual([]);
      } finally {
        await s.close();
      }
    }, 30_000);
  });
}
