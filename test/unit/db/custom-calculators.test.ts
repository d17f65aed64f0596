/**
 * Owners' calculators in both dialects: the store's drafts, publishes, kept versions and
 * cascades; the ids refused widget calls are counted under; the resolver the widget routes
 * call, over two store instances sharing one database (two servers), seeing a publish at
 * once; the copy to PostgreSQL.
 */
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { createCalculatorResolver, type ResolvedCalculator } from '../../../src/calculator-resolver.ts';
import { templates } from '../../../src/calculators/templates/index.ts';
import { openDatabase } from '../../../src/db/client.ts';
import { createAccountsStore, type WidgetLookup } from '../../../src/db/accounts-store.ts';
import {
  type CustomCalculatorsStore,
  createCustomCalculatorsStore,
  type NewCalculator,
} from '../../../src/db/custom-calculators-store.ts';
import { openPostgres } from '../../../src/db/postgres/client.ts';
import { copySqliteToPostgres } from '../../../src/db/postgres/copy-from-sqlite.ts';
import { createPgCustomCalculatorsStore } from '../../../src/db/postgres/custom-calculators-store.ts';
import { createPgAccountsStore } from '../../../src/db/postgres/stores.ts';
import { createCalculatorIds } from '../../../src/require-calculator.ts';
import { evaluate } from '../../../src/definition/evaluate.ts';
import { EXAMPLE_DEFINITION } from '../../../src/definition/example.ts';
import type { Definition } from '../../../src/definition/types.ts';
import { usePostgres } from '../../helpers/postgres.ts';
import { accountRow, DIALECTS, type Dialect, freshStores } from '../../helpers/store-dialects.ts';
import { tempDir } from '../../helpers/temp-dir.ts';

const cluster = usePostgres();

/** The example's default inputs. */
const DEFAULTS = { area: 60, finish: 'matt', ceiling: false };
const definition = (changes: Partial<Definition> = {}): Definition => ({ ...EXAMPLE_DEFINITION, ...changes });
const newCalculator = (accountId: string, id: string, draft = definition({ id })): NewCalculator => ({
  accountId,
  id,
  title: JSON.stringify(draft.title),
  draft: JSON.stringify(draft),
  generation: crypto.randomUUID(),
  createdAt: '2026-03-14T09:00:00.000Z',
  updatedAt: '2026-03-14T09:00:00.000Z',
});

/** Two store instances over one fresh database of a dialect, as two servers have; `close()` removes it. */
async function twoServers(dialect: Dialect) {
  if (dialect === 'sqlite') {
    const dir = tempDir();
    const [one, two] = [openDatabase(join(dir.path, 'data')), openDatabase(join(dir.path, 'data'))];
    return {
      accounts: createAccountsStore(one.db),
      readerAccounts: createAccountsStore(two.db),
      stores: [createCustomCalculatorsStore(one.db), createCustomCalculatorsStore(two.db)] as const,
      close: async () => {
        one.close();
        two.close();
        dir[Symbol.dispose]();
      },
    };
  }
  const url = await cluster().createDatabase();
  const [one, two] = [await openPostgres(url), await openPostgres(url)];
  return {
    accounts: createPgAccountsStore(one.db, one.widget),
    readerAccounts: createPgAccountsStore(two.db, two.widget),
    stores: [
      createPgCustomCalculatorsStore(one.db, one.widget),
      createPgCustomCalculatorsStore(two.db, two.widget),
    ] as const,
    close: async () => {
      await one.close();
      await two.close();
    },
  };
}

const publish = (store: CustomCalculatorsStore, accountId: string, id: string, draft: Definition, at = 't') =>
  store.publish(accountId, id, JSON.stringify(draft), at, 20);

for (const dialect of DIALECTS) {
  describe(`custom calculators on ${dialect}`, () => {
    test('create: a taken id and the limit refuse; list and find tell draft, published and changed', async () => {
      const s = await freshStores(dialect, cluster);
      try {
        await s.accounts.insert(accountRow('a1'));
        const store = s.customCalculators;
        expect(await store.create(newCalculator('a1', 'one'), 2)).toBe('created');
        expect(await store.create(newCalculator('a1', 'one'), 2)).toBe('exists');
        expect(await store.create(newCalculator('a1', 'two'), 2)).toBe('created');
        expect(await store.create(newCalculator('a1', 'three'), 2)).toBe('limit');
        // A taken id is reported as such even at the limit.
        expect(await store.create(newCalculator('a1', 'two'), 2)).toBe('exists');

        expect(
          (await store.list('a1')).map(({ id, status, publishedVersion }) => [id, status, publishedVersion]),
        ).toEqual([
          ['one', 'draft', null],
          ['two', 'draft', null],
        ]);
        expect(await publish(store, 'a1', 'one', definition({ id: 'one' }))).toEqual({ version: 1, created: true });
        expect((await store.find('a1', 'one'))?.status).toBe('published');
        const changed = definition({ id: 'one', title: 'Changed' });
        expect(
          await store.saveDraft('a1', 'one', { draft: JSON.stringify(changed), title: '"Changed"', updatedAt: 'u' }),
        ).toBe(true);
        const found = await store.find('a1', 'one');
        expect(found).toMatchObject({ status: 'changed', published: JSON.stringify(definition({ id: 'one' })) });
        expect(found?.row).toMatchObject({ draft: JSON.stringify(changed), title: '"Changed"', publishedVersion: 1 });
        expect(await store.find('a1', 'none')).toBeUndefined();
        expect(await store.saveDraft('a1', 'none', { draft: '{}', title: '""', updatedAt: 'u' })).toBe(false);
      } finally {
        await s.close();
      }
    }, 30_000);

    test('publish: the next version, the same one for an unchanged draft, the newest `keep` kept', async () => {
      const s = await freshStores(dialect, cluster);
      try {
        await s.accounts.insert(accountRow('a1'));
        const store = s.customCalculators;
        await store.create(newCalculator('a1', 'one'), 10);
        expect(await publish(store, 'a1', 'nope', definition())).toBeUndefined();
        for (let n = 1; n <= 24; n++) {
          const draft = definition({ id: 'one', title: `Title ${n}` });
          expect(await publish(store, 'a1', 'one', draft, `2026-03-${String(n).padStart(2, '0')}`)).toEqual({
            version: n,
            created: true,
          });
          // Publishing what is live again changes nothing.
          expect(await publish(store, 'a1', 'one', draft)).toEqual({ version: n, created: false });
        }
        const versions = await store.versions('a1', 'one');
        expect(versions.map((v) => v.version)).toEqual(Array.from({ length: 20 }, (_, i) => 24 - i));
        expect(versions[0]).toEqual({ version: 24, publishedAt: '2026-03-24' });
        expect(JSON.parse((await store.version('a1', 'one', 5)) as string).title).toBe('Title 5');
        expect(await store.version('a1', 'one', 4)).toBeUndefined();
      } finally {
        await s.close();
      }
    }, 30_000);

    test('delete takes the versions along; deleting the account takes everything of its own', async () => {
      const s = await freshStores(dialect, cluster);
      try {
        for (const id of ['a1', 'b22']) {
          await s.accounts.insert(accountRow(id));
          await s.customCalculators.create(newCalculator(id, 'one'), 10);
          await s.customCalculators.create(newCalculator(id, 'two'), 10);
          await publish(s.customCalculators, id, 'one', definition({ id: 'one' }));
          await publish(s.customCalculators, id, 'two', definition({ id: 'two' }));
        }
        expect(await s.customCalculators.delete('a1', 'one')).toBe(true);
        expect(await s.customCalculators.delete('a1', 'one')).toBe(false);
        expect(await s.customCalculators.versions('a1', 'one')).toEqual([]);
        // The same id under a new calculator starts its versions again.
        await s.customCalculators.create(newCalculator('a1', 'one'), 10);
        expect(await publish(s.customCalculators, 'a1', 'one', definition({ id: 'one' }))).toEqual({
          version: 1,
          created: true,
        });

        expect(await s.accounts.delete('a1')).toBe(true);
        expect(await s.customCalculators.list('a1')).toEqual([]);
        expect(await s.customCalculators.versions('a1', 'two')).toEqual([]);
        expect((await s.customCalculators.list('b22')).map((c) => c.id)).toEqual(['one', 'two']);
        expect(await s.customCalculators.versions('b22', 'two')).toHaveLength(1);
      } finally {
        await s.close();
      }
    }, 30_000);

    test('ids: the account’s own, published or not; a delete takes the calculator’s widget config, no other', async () => {
      const s = await freshStores(dialect, cluster);
      try {
        for (const id of ['a1', 'b22']) await s.accounts.insert(accountRow(id));
        await s.customCalculators.create(newCalculator('a1', 'one'), 10);
        await s.customCalculators.create(newCalculator('a1', 'two'), 10);
        await s.customCalculators.create(newCalculator('b22', 'three'), 10);
        await publish(s.customCalculators, 'a1', 'two', definition({ id: 'two' }));
        expect((await s.customCalculators.ids('a1')).sort()).toEqual(['one', 'two']);
        expect(await s.customCalculators.ids('b22')).toEqual(['three']);
        expect(await s.customCalculators.ids('nobody')).toEqual([]);

        const config = (accountId: string, calcId: string) => ({
          accountId,
          calcId,
          webhookUrl: 'https://hooks.shop.example/prefill',
          webhookHeaders: null,
          updatedAt: 't',
        });
        await s.configs.saveWebhook(config('a1', 'one'));
        await s.configs.saveWebhook(config('a1', 'bmi'));
        await s.configs.saveWebhook(config('b22', 'one'));
        expect(await s.customCalculators.delete('a1', 'one')).toBe(true);
        expect(await s.configs.find('a1', 'one')).toBeUndefined();
        expect(await s.configs.find('a1', 'bmi')).toMatchObject({ calcId: 'bmi' });
        expect(await s.configs.find('b22', 'one')).toMatchObject({ calcId: 'one' });
        // Nothing deleted, nothing taken along.
        expect(await s.customCalculators.delete('b22', 'one')).toBe(false);
        expect(await s.configs.find('b22', 'one')).toMatchObject({ calcId: 'one' });
        expect(await s.customCalculators.ids('a1')).toEqual(['two']);
      } finally {
        await s.close();
      }
    }, 30_000);

    test('the ids refusals count under: one read per account and minute, none for templates or malformed ids', async () => {
      const s = await freshStores(dialect, cluster);
      try {
        await s.accounts.insert(accountRow('a1'));
        await s.customCalculators.create(newCalculator('a1', 'quote'), 10);
        let reads = 0;
        let clock = 0;
        const ids = createCalculatorIds({
          // The real store, its reads counted.
          store: {
            ids: (accountId) => {
              reads += 1;
              return s.customCalculators.ids(accountId);
            },
          },
          now: () => clock,
        });
        expect(ids.exists('a1', 'bmi')).toBe(true);
        expect(ids.exists('a1', 'not an id')).toBe(false);
        expect(ids.exists('a1', '__proto__')).toBe(false);
        expect(reads).toBe(0);
        // The first read answers later; until it is in, callers share it.
        const first = ids.exists('a1', 'quote');
        expect(first).toBeInstanceOf(Promise);
        const second = ids.exists('a1', 'made-up');
        expect([await first, await second]).toEqual([true, false]);
        // Then at once, for any id, made-up ones included, without reading again.
        for (let i = 0; i < 100; i++) expect(ids.exists('a1', `made-up-${i}`)).toBe(false);
        expect(ids.exists('a1', 'quote')).toBe(true);
        expect(reads).toBe(1);

        // Another server's creation is seen after a minute; this server's at once (forget).
        await s.customCalculators.create(newCalculator('a1', 'later'), 10);
        clock += 59_999;
        expect(ids.exists('a1', 'later')).toBe(false);
        clock += 1;
        expect(await ids.exists('a1', 'later')).toBe(true);
        expect(reads).toBe(2);
        await s.customCalculators.delete('a1', 'later');
        ids.forget('a1');
        expect(await ids.exists('a1', 'later')).toBe(false);
        expect(reads).toBe(3);

        // A failed read counts nothing and is not remembered.
        const failing = createCalculatorIds({
          store: { ids: async () => Promise.reject(new Error('the database went away')) },
          now: () => clock,
        });
        expect(await failing.exists('a1', 'quote')).toBe(false);
        const recovered = createCalculatorIds({ store: s.customCalculators, now: () => clock });
        expect(await recovered.exists('a1', 'quote')).toBe(true);
      } finally {
        await s.close();
      }
    }, 30_000);

    test('the resolver: templates at once; a publish on one server is seen by the next resolve on another', async () => {
      const servers = await twoServers(dialect);
      try {
        const [writer, reader] = servers.stores;
        await servers.accounts.insert(accountRow('a1'));
        await servers.accounts.insert(accountRow('b22'));
        const resolve = createCalculatorResolver({ store: reader });
        const at = async (accountId: string, id: string) => await resolve(accountId, id);

        // A template: no store read, no promise, whoever asks.
        const bmi = resolve('a1', 'bmi') as ResolvedCalculator;
        expect(bmi.template).toBe(templates[0]);
        expect(bmi.version).toBeNull();
        expect(JSON.parse(bmi.json)).toEqual(templates[0]?.definition);

        await writer.create(newCalculator('a1', 'quote'), 10);
        expect(await at('a1', 'quote')).toBeUndefined(); // a draft is not served

        const v1 = definition({ id: 'quote' });
        await publish(writer, 'a1', 'quote', v1);
        const first = (await at('a1', 'quote')) as ResolvedCalculator;
        expect(first).toMatchObject({ id: 'quote', version: 1, definition: v1, json: JSON.stringify(v1) });
        expect(evaluate(first.compiled, DEFAULTS, 'metric')).toEqual({ total: 720, days: 2 });
        // Cached: the same compiled definition while the version stands.
        expect(await at('a1', 'quote')).toBe(first);
        // The read is one point read, and on SQLite it answers without a promise.
        expect(resolve('a1', 'quote') instanceof Promise).toBe(dialect === 'postgres');
        // Another account's id is not this one.
        expect(await at('b22', 'quote')).toBeUndefined();

        const v2 = definition({ id: 'quote', tables: { discounts: [[0, 0.5]] } });
        await writer.saveDraft('a1', 'quote', { draft: JSON.stringify(v2), title: '"x"', updatedAt: 'u' });
        expect((await at('a1', 'quote'))?.version).toBe(1); // a saved draft changes nothing
        await publish(writer, 'a1', 'quote', v2);
        const second = (await at('a1', 'quote')) as ResolvedCalculator;
        expect(second.version).toBe(2);
        expect(evaluate(second.compiled, DEFAULTS, 'metric')).toEqual({ total: 360, days: 2 });

        // Deleted: gone at once; re-created under the same id, its version 1 is not the old one.
        await writer.delete('a1', 'quote');
        expect(await at('a1', 'quote')).toBeUndefined();
        const other = definition({ id: 'quote', title: 'Another quote' });
        await writer.create(newCalculator('a1', 'quote', other), 10);
        await publish(writer, 'a1', 'quote', other);
        expect(await at('a1', 'quote')).toMatchObject({ version: 1, definition: other });
      } finally {
        await servers.close();
      }
    }, 30_000);

    test('the widget lookup’s token: a calculator held under it needs no read; a publish anywhere changes it', async () => {
      const servers = await twoServers(dialect);
      try {
        const [writer, reader] = servers.stores;
        for (const id of ['a1', 'b22']) await servers.accounts.insert(accountRow(id));
        const origins = ['https://shop.example'];
        // A catalogue load's lookup is as it always was: no token.
        expect(await servers.readerAccounts.widgetLookup('pk_a1', origins, 'x')).toEqual({
          account: expect.objectContaining({ id: 'a1' }),
          domainStatus: undefined,
        });
        let reads = 0;
        const resolve = createCalculatorResolver({
          store: {
            published: (accountId, id, known) => {
              reads += 1;
              return reader.published(accountId, id, known);
            },
          },
        });
        /** A widget load on the reading server: its lookup, then the resolver with the lookup's token. */
        const load = async (accountId = 'a1', calcId = 'quote') => {
          const lookup = await servers.readerAccounts.widgetLookup(`pk_${accountId}`, origins, 'x', calcId);
          expect(lookup?.account.id).toBe(accountId);
          return resolve(accountId, calcId, lookup?.calculatorToken);
        };

        await writer.create(newCalculator('a1', 'quote'), 10);
        expect(await load()).toBeUndefined(); // a draft is not served
        const v1 = definition({ id: 'quote' });
        await publish(writer, 'a1', 'quote', v1);
        const first = (await load()) as ResolvedCalculator;
        expect(first).toMatchObject({ id: 'quote', version: 1, definition: v1 });
        // Held under the token: no read while nothing is committed, and no promise on SQLite.
        const before = reads;
        for (let i = 0; i < 3; i++) expect(await load()).toBe(first);
        expect(reads).toBe(before);
        const lookup = servers.readerAccounts.widgetLookup('pk_a1', origins, 'x', 'quote');
        if (dialect === 'sqlite') expect(resolve('a1', 'quote', (lookup as WidgetLookup).calculatorToken)).toBe(first);

        // Published on the other server: the next load reads and serves the new version.
        const v2 = definition({ id: 'quote', title: 'Second' });
        await publish(writer, 'a1', 'quote', v2);
        expect(await load()).toMatchObject({ version: 2, definition: v2 });
        expect(reads).toBeGreaterThan(before);
        // Another account's id is not this one; deleted on the other server, gone at the next load.
        expect(await load('b22')).toBeUndefined();
        await writer.delete('a1', 'quote');
        expect(await load()).toBeUndefined();
      } finally {
        await servers.close();
      }
    }, 30_000);

    test('the token on one server: its own publish, delete and re-create are seen by its next load', async () => {
      // One connection writes, looks up and reads, as one server does: the token must change
      // with this connection's own commits, not only with other connections'.
      const s = await freshStores(dialect, cluster);
      try {
        await s.accounts.insert(accountRow('a1'));
        const store = s.customCalculators;
        let reads = 0;
        const resolve = createCalculatorResolver({
          store: {
            published: (accountId, id, known) => {
              reads += 1;
              return store.published(accountId, id, known);
            },
          },
        });
        const load = async () => {
          const lookup = await s.accounts.widgetLookup('pk_a1', ['https://shop.example'], 'x', 'quote');
          return resolve('a1', 'quote', lookup?.calculatorToken);
        };

        await store.create(newCalculator('a1', 'quote'), 10);
        const v1 = definition({ id: 'quote' });
        await publish(store, 'a1', 'quote', v1);
        const first = (await load()) as ResolvedCalculator;
        expect(first).toMatchObject({ version: 1, definition: v1 });
        const held = reads;
        expect(await load()).toBe(first);
        expect(reads).toBe(held);

        // A saved draft (a restore is one) leaves visitors on version 1.
        const draft = definition({ id: 'quote', title: 'Draft' });
        await store.saveDraft('a1', 'quote', { draft: JSON.stringify(draft), title: '"Draft"', updatedAt: 'u' });
        expect(await load()).toMatchObject({ version: 1, definition: v1 });
        // Published on this very connection: the next load serves it.
        await publish(store, 'a1', 'quote', draft);
        expect(await load()).toMatchObject({ version: 2, definition: draft });
        // Deleted here: gone at the next load; re-created and published under the same id,
        // version 1 again, but the new definition (another generation).
        await store.delete('a1', 'quote');
        expect(await load()).toBeUndefined();
        const again = definition({ id: 'quote', title: 'Again' });
        await store.create(newCalculator('a1', 'quote', again), 10);
        await publish(store, 'a1', 'quote', again);
        expect(await load()).toMatchObject({ version: 1, definition: again });
      } finally {
        await s.close();
      }
    }, 30_000);

    test('the resolver holds at most its share of JSON; evicted entries are read again', async () => {
      const s = await freshStores(dialect, cluster);
      try {
        await s.accounts.insert(accountRow('a1'));
        const size = JSON.stringify(definition({ id: 'q0' })).length;
        const resolve = createCalculatorResolver({ store: s.customCalculators, maxCachedChars: size * 2 + 10 });
        for (let i = 0; i < 4; i++) {
          await s.customCalculators.create(newCalculator('a1', `q${i}`), 10);
          await publish(s.customCalculators, 'a1', `q${i}`, definition({ id: `q${i}` }));
        }
        const first = await resolve('a1', 'q0');
        expect(await resolve('a1', 'q0')).toBe(first);
        for (let i = 1; i < 4; i++) expect((await resolve('a1', `q${i}`))?.id).toBe(`q${i}`);
        // q0 was the least recently used: read and compiled anew, equal but not the same object.
        const again = await resolve('a1', 'q0');
        expect(again).not.toBe(first);
        expect(again).toEqual(first as ResolvedCalculator);
      } finally {
        await s.close();
      }
    }, 30_000);
  });
}

test('calc admin migrate copies calculators and their versions to PostgreSQL', async () => {
  using dir = tempDir();
  const source = openDatabase(join(dir.path, 'data'));
  const lite = createCustomCalculatorsStore(source.db);
  await createAccountsStore(source.db).insert(accountRow('a1'));
  await lite.create(newCalculator('a1', 'quote'), 10);
  await publish(lite, 'a1', 'quote', definition({ id: 'quote' }));
  await publish(lite, 'a1', 'quote', definition({ id: 'quote', title: 'Second' }));
  const target = await openPostgres(await cluster().createDatabase());
  try {
    const counts = await copySqliteToPostgres(source, target.db);
    expect(counts).toMatchObject({ custom_calculators: 1, custom_calculator_versions: 2 });
    const pg = createPgCustomCalculatorsStore(target.db, target.widget);
    expect(await pg.find('a1', 'quote')).toEqual(await lite.find('a1', 'quote'));
    expect(await pg.versions('a1', 'quote')).toEqual(await lite.versions('a1', 'quote'));
    // The copy serves at once: the next publish goes on from version 2.
    expect(await publish(pg, 'a1', 'quote', definition({ id: 'quote', title: 'Third' }))).toEqual({
      version: 3,
      created: true,
    });
  } finally {
    source.close();
    await target.close();
  }
}, 30_000);
