/**
 * `addUsageEvent` on both dialects: a usage event's key (account, period, kind) lets one
 * event through, whoever asks and however often; two servers on one PostgreSQL racing for
 * it queue it once.
 */
import { describe, expect, test } from 'bun:test';
import { openPostgres } from '../../../src/db/postgres/client.ts';
import { createPgAccountsStore } from '../../../src/db/postgres/stores.ts';
import { createPgDeliveryStore, createPgResultsEndpointStore } from '../../../src/db/postgres/delivery-stores.ts';
import type { ResultsEndpointStore } from '../../../src/db/results-endpoint-store.ts';
import { newEvent } from '../../../src/delivery/events.ts';
import { usePostgres } from '../../helpers/postgres.ts';
import { accountRow, DIALECTS, endpointRow, freshStores } from '../../helpers/store-dialects.ts';

const cluster = usePostgres();
const NOW = Date.parse('2026-03-14T09:00:00.000Z');
const KEY = { accountId: 'a1', period: '2026-03', kind: 'quota.warning' };

const warning = (accountId = 'a1') => newEvent(accountId, 'usage.warning', { percent: 80 }, new Date(NOW));

const endpointFor = (endpoints: ResultsEndpointStore, accountId: string) =>
  endpoints.insert(endpointRow(accountId, ['usage.warning', 'usage.exhausted'], new Date(NOW).toISOString()));

for (const dialect of DIALECTS) {
  describe(`usage events on ${dialect}`, () => {
    test('one event per account, period and kind; another period or kind is another event', async () => {
      const s = await freshStores(dialect, cluster);
      try {
        await s.accounts.insert(accountRow('a1'));
        await endpointFor(s.resultsEndpoints, 'a1');
        const first = warning();
        expect(await s.deliveries.addUsageEvent(KEY, first, NOW)).toBe(true);
        const again = warning();
        expect(await s.deliveries.addUsageEvent(KEY, again, NOW)).toBe(false);
        expect(await s.deliveries.findEvent('a1', first.id)).toMatchObject({
          type: 'usage.warning',
          status: 'pending',
        });
        expect(await s.deliveries.findEvent('a1', again.id)).toBeUndefined();
        expect(await s.deliveries.addUsageEvent({ ...KEY, period: '2026-04' }, warning(), NOW)).toBe(true);
        expect(await s.deliveries.addUsageEvent({ ...KEY, kind: 'quota.exhausted' }, warning(), NOW)).toBe(true);
      } finally {
        await s.close();
      }
    });

    test('without an endpoint nothing is queued, and the crossing is spent: an endpoint set later gets no repeat', async () => {
      const s = await freshStores(dialect, cluster);
      try {
        await s.accounts.insert(accountRow('a1'));
        expect(await s.deliveries.addUsageEvent(KEY, warning(), NOW)).toBe(false);
        await endpointFor(s.resultsEndpoints, 'a1');
        const late = warning();
        expect(await s.deliveries.addUsageEvent(KEY, late, NOW)).toBe(false);
        expect(await s.deliveries.findEvent('a1', late.id)).toBeUndefined();
      } finally {
        await s.close();
      }
    });

    test("the prune forgets the keys of months before the cut-off's, never the current month's", async () => {
      const s = await freshStores(dialect, cluster);
      try {
        await s.accounts.insert(accountRow('a1'));
        await endpointFor(s.resultsEndpoints, 'a1');
        for (const period of ['2026-01', '2026-01-31', '2026-02', '2026-02-10', '2026-03'])
          await s.deliveries.addUsageEvent({ ...KEY, period }, warning(), NOW);
        // Thirty days before 14 March: 12 February.
        await s.deliveries.prune('2026-02-12T09:00:00.000Z');
        const answers: boolean[] = [];
        for (const period of ['2026-01', '2026-01-31', '2026-02', '2026-02-10', '2026-03'])
          answers.push(await s.deliveries.addUsageEvent({ ...KEY, period }, warning(), NOW));
        expect(answers).toEqual([true, true, false, false, false]);
      } finally {
        await s.close();
      }
    });
  });
}

test('two servers on one PostgreSQL racing for one key, 20 calls each: one event', async () => {
  const url = await cluster().createDatabase();
  const [a, b] = await Promise.all([openPostgres(url), openPostgres(url)]);
  try {
    await createPgAccountsStore(a.db, a.widget).insert(accountRow('a1'));
    await endpointFor(createPgResultsEndpointStore(a.db), 'a1');
    const servers = [createPgDeliveryStore(a.db), createPgDeliveryStore(b.db)];
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => servers[i % 2]?.addUsageEvent(KEY, warning(), NOW)),
    );
    expect(answers.filter((queued) => queued === true)).toHaveLength(1);
    const [row] = (await a.db.$client.unsafe(
      "SELECT count(*) AS n FROM delivery_events WHERE type = 'usage.warning'",
    )) as {
      n: string;
    }[];
    expect(Number(row?.n)).toBe(1);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});
