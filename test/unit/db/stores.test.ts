import { describe, expect, test } from 'bun:test';
import { MAX_PENDING_DAY_KEYS } from '../../../src/usage/counter.ts';
import { accountRow, DIALECTS, freshStores } from '../../helpers/store-dialects.ts';
import { usePostgres } from '../../helpers/postgres.ts';

const cluster = usePostgres();
/** When the webhook of the config tests was saved: before each outcome they write. */
const SAVED_AT = '2026-11-25T09:00:00.000Z';
/** Pending requests made at or before this have expired (the widget's lookup and the pending count take it). */
const EXPIRED_AT = '2026-01-01T00:00:00.000Z';
/** No usage at all: the lists of a flush, each empty. */
const NO_DELTAS = { monthly: [], loads: [], calls: [], refused: [], skipped: [], funnel: [] };

const account = (id: string) => accountRow(id, `2026-01-0${id.length % 9}T00:00:00.000Z`);

for (const dialect of DIALECTS) {
  describe(`stores on ${dialect}`, () => {
    test('accounts: unique email, lookups by key, id and email, plan and key changes, cascade on delete', async () => {
      const s = await freshStores(dialect, cluster);
      try {
        expect(await s.accounts.insert(account('a1'))).toBe(true);
        expect(await s.accounts.insert({ ...account('a2'), email: 'a1@shop.example' })).toBe(false);
        expect((await s.accounts.findByApiKey('pk_a1'))?.id).toBe('a1');
        expect(await s.accounts.findByApiKey('pk_none')).toBeUndefined();
        await s.accounts.setPlan('a1', 'extra');
        await s.accounts.setApiKey('a1', 'pk_new');
        await s.accounts.revokeTokens('a1', 1_800_000_000_000);
        const row = await s.accounts.findById('a1');
        expect(row).toMatchObject({ plan: 'extra', apiKey: 'pk_new', tokensValidAfter: 1_800_000_000_000 });
        // The widget's own lookups answer the same row, a 64-bit timestamp as a number.
        expect(await s.accounts.findByApiKey('pk_new')).toEqual(row);
        expect((await s.accounts.widgetLookup('pk_new', ['https://a.example'], EXPIRED_AT))?.account).toEqual(row);
        // The owner's limits are columns of the row: named ones change, the others stay.
        expect(row).toMatchObject({
          loadsPerDay: null,
          loadsPerDayPerDomain: null,
          pullsPerSecond: null,
          registerDomain: 1,
        });
        await s.accounts.setLimits('a1', { loadsPerDay: 500, pullsPerSecond: 3, registerDomain: 0 });
        await s.accounts.setLimits('a1', { pullsPerSecond: null });
        expect(await s.accounts.findByApiKey('pk_new')).toMatchObject({
          loadsPerDay: 500,
          loadsPerDayPerDomain: null,
          pullsPerSecond: null,
          registerDomain: 0,
        });
        await s.accounts.setLimits('a1', { loadsPerDay: null, registerDomain: 1 });
        expect(await s.accounts.findByEmail('a1@shop.example')).toEqual(row);
        await s.domains.insert({ accountId: 'a1', origin: 'https://a.example', status: 'active', createdAt: 'x' });
        await s.usage.addAll({ ...NO_DELTAS, monthly: [{ accountId: 'a1', period: '2026-05', loads: 2 }] });
        expect(await s.accounts.listWithUsage('2026-05')).toEqual([{ ...(row as NonNullable<typeof row>), loads: 2 }]);
        expect(await s.accounts.count()).toBe(1);
        expect(await s.accounts.delete('a1')).toBe(true);
        expect(await s.domains.list('a1')).toEqual([]);
        expect(await s.usage.loads('a1', '2026-05')).toBe(0);
        expect(await s.accounts.delete('a1')).toBe(false);
      } finally {
        await s.close();
      }
    }, 30_000);

    test("widget lookup: the key's account and the best status among candidate origins, only its own domains", async () => {
      const s = await freshStores(dialect, cluster);
      try {
        await s.accounts.insert(account('a1'));
        await s.accounts.insert(account('b22'));
        const exact = 'https://shop.example';
        const candidates = ['https://a.b.shop.example', 'https://*.b.shop.example', 'https://*.shop.example'];
        const row = await s.accounts.findById('a1');
        expect(await s.accounts.widgetLookup('pk_a1', [exact], EXPIRED_AT)).toEqual({
          account: row as NonNullable<typeof row>,
          domainStatus: undefined,
        });
        expect(await s.accounts.widgetLookup('pk_none', [exact], EXPIRED_AT)).toBeUndefined();
        // Another account's active wildcard admits nothing for this key.
        await s.domains.insert({ accountId: 'b22', origin: candidates[2] as string, status: 'active', createdAt: 'x' });
        expect((await s.accounts.widgetLookup('pk_a1', candidates, EXPIRED_AT))?.domainStatus).toBeUndefined();
        expect((await s.accounts.widgetLookup('pk_b22', candidates, EXPIRED_AT))?.domainStatus).toBe('active');
        await s.domains.insert({ accountId: 'a1', origin: candidates[0] as string, status: 'pending', createdAt: 'x' });
        expect((await s.accounts.widgetLookup('pk_a1', candidates, EXPIRED_AT))?.domainStatus).toBe('pending');
        expect((await s.accounts.widgetLookup('pk_a1', [exact], EXPIRED_AT))?.domainStatus).toBeUndefined();
        // A pending request made at or before the cut-off has expired: as if it were not there.
        const old = 'https://old.example';
        await s.domains.insert({ accountId: 'a1', origin: old, status: 'pending', createdAt: EXPIRED_AT });
        expect((await s.accounts.widgetLookup('pk_a1', [old], EXPIRED_AT))?.domainStatus).toBeUndefined();
        expect((await s.accounts.widgetLookup('pk_a1', [old], '2025-12-31T23:59:59.999Z'))?.domainStatus).toBe(
          'pending',
        );
        // An active wildcard outranks the pending exact origin, whatever the candidate order.
        await s.domains.insert({ accountId: 'a1', origin: candidates[1] as string, status: 'active', createdAt: 'x' });
        expect((await s.accounts.widgetLookup('pk_a1', candidates, EXPIRED_AT))?.domainStatus).toBe('active');
        expect((await s.accounts.widgetLookup('pk_a1', [...candidates].reverse(), EXPIRED_AT))?.domainStatus).toBe(
          'active',
        );
        expect((await s.accounts.widgetLookup('pk_a1', candidates.slice(0, 1), EXPIRED_AT))?.domainStatus).toBe(
          'pending',
        );
      } finally {
        await s.close();
      }
    }, 30_000);

    test('domains: concurrent check-then-insert transactions insert once; a failed one writes nothing', async () => {
      const s = await freshStores(dialect, cluster);
      try {
        await s.accounts.insert(account('a1'));
        const origin = 'https://b.example';
        const insertOnce = () =>
          s.domains.transaction(async (tx) => {
            if (await tx.find('a1', origin)) return false;
            await tx.insert({ accountId: 'a1', origin, status: 'pending', createdAt: 'x' });
            return true;
          });
        const results = await Promise.all([insertOnce(), insertOnce(), insertOnce(), insertOnce()]);
        expect(results.filter(Boolean)).toHaveLength(1);
        expect(await s.domains.countPending('a1', EXPIRED_AT)).toBe(1);
        await expect(
          s.domains.transaction(async (tx) => {
            await tx.activate('a1', origin);
            throw new Error('changed my mind');
          }),
        ).rejects.toThrow('changed my mind');
        expect(await s.domains.status('a1', origin)).toBe('pending');
        expect(await s.domains.remove('a1', origin)).toBe(true);
        expect(await s.domains.status('a1', origin)).toBeUndefined();
        // Expired pending requests: not counted, and removed by the housekeeping for every account.
        await s.domains.insert({
          accountId: 'a1',
          origin: 'https://c.example',
          status: 'pending',
          createdAt: EXPIRED_AT,
        });
        await s.domains.insert({
          accountId: 'a1',
          origin: 'https://d.example',
          status: 'pending',
          createdAt: SAVED_AT,
        });
        await s.domains.insert({
          accountId: 'a1',
          origin: 'https://e.example',
          status: 'active',
          createdAt: EXPIRED_AT,
        });
        expect(await s.domains.countPending('a1', EXPIRED_AT)).toBe(1);
        expect(await s.domains.removeExpired(EXPIRED_AT)).toBe(1);
        expect((await s.domains.list('a1')).map((row) => row.origin)).toEqual([
          'https://e.example',
          'https://d.example',
        ]);
      } finally {
        await s.close();
      }
    }, 30_000);

    test('usage: concurrent flushes add up exactly; per-day rows, sums and pruning', async () => {
      const s = await freshStores(dialect, cluster);
      try {
        await s.accounts.insert(account('a1'));
        const delta = {
          monthly: [{ accountId: 'a1', period: '2026-05', loads: 3 }],
          loads: [{ accountId: 'a1', day: '2026-05-02', calcId: 'bmi', domain: 'https://a.example', loads: 3 }],
          calls: [{ accountId: 'a1', day: '2026-05-02', calcId: 'bmi', outcome: 'ok' as const, calls: 1 }],
          refused: [{ accountId: 'a1', day: '2026-05-02', calcId: 'bmi', reason: 'cap_reached' as const, count: 2 }],
          skipped: [{ accountId: 'a1', day: '2026-05-02', calcId: 'bmi', reason: 'capped' as const, count: 1 }],
          funnel: [
            {
              accountId: 'a1',
              day: '2026-05-02',
              calcId: 'bmi',
              domain: 'https://a.example',
              event: 'view' as const,
              count: 4,
            },
            {
              accountId: 'a1',
              day: '2026-05-02',
              calcId: 'bmi',
              domain: 'https://a.example',
              event: 'start' as const,
              count: 2,
            },
            {
              accountId: 'a1',
              day: '2026-05-02',
              calcId: 'bmi',
              domain: 'https://b.example',
              event: 'submit' as const,
              count: 1,
            },
            {
              accountId: 'a1',
              day: '2026-05-02',
              calcId: 'tip',
              domain: 'https://a.example',
              event: 'view' as const,
              count: 1,
            },
          ],
        };
        // A deleted account's counts are dropped, not a failure for everyone else's.
        const ghost = { ...delta, monthly: [...delta.monthly, { accountId: 'gone', period: '2026-05', loads: 9 }] };
        await Promise.all(Array.from({ length: 10 }, (_, i) => s.usage.addAll(i === 0 ? ghost : delta)));
        expect(await s.usage.loads('a1', '2026-05')).toBe(30);
        expect(await s.usage.dailyLoads('a1', '2026-05-01', '2026-05-31')).toEqual([
          { date: '2026-05-02', calcId: 'bmi', domain: 'https://a.example', loads: 30 },
        ]);
        expect(await s.usage.dailyCalls('a1', '2026-05-01', '2026-05-31')).toEqual([
          { date: '2026-05-02', calcId: 'bmi', outcome: 'ok', calls: 10 },
        ]);
        expect(await s.usage.dailyRefused('a1', '2026-05-01', '2026-05-31')).toEqual([
          { date: '2026-05-02', calcId: 'bmi', reason: 'cap_reached', count: 20 },
        ]);
        expect(await s.usage.dailySkipped('a1', '2026-05-01', '2026-05-31')).toEqual([
          { date: '2026-05-02', calcId: 'bmi', reason: 'capped', count: 10 },
        ]);
        expect(await s.usage.dailyFunnel('a1', '2026-05-01', '2026-05-31')).toEqual([
          {
            date: '2026-05-02',
            calcId: 'bmi',
            domain: 'https://a.example',
            views: 40,
            starts: 20,
            completes: 0,
            submits: 0,
          },
          {
            date: '2026-05-02',
            calcId: 'bmi',
            domain: 'https://b.example',
            views: 0,
            starts: 0,
            completes: 0,
            submits: 10,
          },
          {
            date: '2026-05-02',
            calcId: 'tip',
            domain: 'https://a.example',
            views: 10,
            starts: 0,
            completes: 0,
            submits: 0,
          },
        ]);
        expect(await s.usage.funnelTotals('a1', '2026-05-01', '2026-05-31')).toEqual([
          { calcId: 'bmi', views: 40, starts: 20, completes: 0, submits: 10 },
          { calcId: 'tip', views: 10, starts: 0, completes: 0, submits: 0 },
        ]);
        expect(await s.usage.funnelTotals('a1', '2026-05-01', '2026-05-31', { domain: 'https://a.example' })).toEqual([
          { calcId: 'bmi', views: 40, starts: 20, completes: 0, submits: 0 },
          { calcId: 'tip', views: 10, starts: 0, completes: 0, submits: 0 },
        ]);
        expect(await s.usage.funnelTotals('a1', '2026-05-01', '2026-05-31', { calcId: 'tip' })).toEqual([
          { calcId: 'tip', views: 10, starts: 0, completes: 0, submits: 0 },
        ]);
        expect(await s.usage.funnelTotals('a1', '2026-05-03', '2026-05-31')).toEqual([]);
        expect(await s.usage.loadsOnDay('a1', '2026-05-02')).toEqual([{ domain: 'https://a.example', loads: 30 }]);
        expect(await s.usage.loadsOnDay('a1', '2026-05-03')).toEqual([]);
        expect(await s.usage.loadsBetween('a1', '2026-05-01', '2026-05-31')).toBe(30);
        expect(await s.usage.pruneBefore('2026-05-03')).toEqual({
          loads: 1,
          calls: 1,
          refused: 1,
          skipped: 1,
          funnel: 4,
        });
        expect(await s.usage.loadsBetween('a1', '2026-05-01', '2026-05-31')).toBe(0);
        expect(await s.usage.loads('a1', '2026-05')).toBe(30);
      } finally {
        await s.close();
      }
    }, 30_000);

    test('usage: a flush as large as the cap on pending per-day rows allows is written whole', async () => {
      const s = await freshStores(dialect, cluster);
      try {
        await s.accounts.insert(account('a1'));
        // The most a server keeps unwritten through an outage, all of it per-day loads.
        const loads = Array.from({ length: MAX_PENDING_DAY_KEYS }, (_, i) => ({
          accountId: 'a1',
          day: '2026-05-02',
          calcId: `calc${i % 50}`,
          domain: `https://s${Math.floor(i / 50)}.example`,
          loads: 2,
        }));
        const total = MAX_PENDING_DAY_KEYS * 2;
        await s.usage.addAll({ ...NO_DELTAS, monthly: [{ accountId: 'a1', period: '2026-05', loads: total }], loads });
        expect(await s.usage.loads('a1', '2026-05')).toBe(total);
        expect(await s.usage.loadsBetween('a1', '2026-05-01', '2026-05-31')).toBe(total);
      } finally {
        await s.close();
      }
    }, 60_000);

    test('widget configs and signing secrets: save, statuses, first secret once, rotation only from the expected one', async () => {
      const s = await freshStores(dialect, cluster);
      try {
        await s.accounts.insert(account('a1'));
        await s.accounts.insert(account('a22'));
        await s.configs.saveWebhook({
          accountId: 'a1',
          calcId: 'bmi',
          webhookUrl: 'https://hook.example/',
          webhookHeaders: 'v1.sealed',
          updatedAt: SAVED_AT,
        });
        const status = (at: string, outcome: string) => ({
          accountId: 'a1',
          calcId: 'bmi',
          status: JSON.stringify({ at, outcome }),
          at,
        });
        await s.configs.saveStatuses([status('2026-11-25T10:00:00.000Z', 'ok')]);
        expect(await s.configs.find('a1', 'bmi')).toEqual({
          accountId: 'a1',
          calcId: 'bmi',
          webhookUrl: 'https://hook.example/',
          webhookHeaders: 'v1.sealed',
          webhookStatus: '{"at":"2026-11-25T10:00:00.000Z","outcome":"ok"}',
          updatedAt: SAVED_AT,
        });
        // Servers flush in any order: an older outcome never replaces a newer one.
        await s.configs.saveStatuses([status('2026-11-25T09:59:59.999Z', 'timeout')]);
        expect(JSON.parse(String((await s.configs.find('a1', 'bmi'))?.webhookStatus)).outcome).toBe('ok');
        await s.configs.saveStatuses([status('2026-11-25T10:00:00.001Z', 'http_error')]);
        expect(JSON.parse(String((await s.configs.find('a1', 'bmi'))?.webhookStatus)).outcome).toBe('http_error');
        // Saved anew: an outcome from before that (another server's, flushed late) is not written.
        await s.configs.saveWebhook({
          accountId: 'a1',
          calcId: 'bmi',
          webhookUrl: 'https://hook.example/v2',
          webhookHeaders: null,
          updatedAt: '2026-11-25T10:00:05.000Z',
        });
        await s.configs.saveStatuses([status('2026-11-25T10:00:04.000Z', 'ok')]);
        expect((await s.configs.find('a1', 'bmi'))?.webhookStatus).toBeNull();
        await s.configs.saveStatuses([status('2026-11-25T10:00:06.000Z', 'timeout')]);
        expect(JSON.parse(String((await s.configs.find('a1', 'bmi'))?.webhookStatus)).outcome).toBe('timeout');
        expect(await s.signingSecrets.accountsWithout(10)).toEqual(['a1', 'a22']);
        expect(await s.signingSecrets.insertFirst({ accountId: 'a1', secret: 's1', createdAt: 't' })).toBe(true);
        expect(await s.signingSecrets.insertFirst({ accountId: 'a1', secret: 's2', createdAt: 't' })).toBe(false);
        const next = { accountId: 'a1', secret: 's3', createdAt: 't2', previousSecret: 's1', previousValidUntil: 'u' };
        expect(await s.signingSecrets.rotate(next, 'not-current')).toBe(false);
        expect(await s.signingSecrets.rotate(next, 's1')).toBe(true);
        expect(await s.signingSecrets.find('a1')).toEqual(next);
        expect(await s.signingSecrets.accountsWithout(10)).toEqual(['a22']);
      } finally {
        await s.close();
      }
    }, 30_000);
  });
}
