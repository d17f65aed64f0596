import { expect, test } from 'bun:test';
import { join } from 'node:path';
import { createAccountsStore } from '../../../src/db/accounts-store.ts';
import { openDatabase } from '../../../src/db/client.ts';
import { createDomainsStore } from '../../../src/db/domains-store.ts';
import { accountRow } from '../../helpers/store-dialects.ts';
import { tempDir } from '../../helpers/temp-dir.ts';

function setup() {
  const dir = tempDir();
  const database = openDatabase(join(dir.path, 'data'));
  const accounts = createAccountsStore(database.db);
  const domains = createDomainsStore(database.db);
  return {
    accounts,
    domains,
    [Symbol.dispose]: () => {
      database.close();
      dir[Symbol.dispose]();
    },
  };
}

test('a write made while a transaction awaits is not rolled back with it', async () => {
  using s = setup();
  await s.accounts.insert(accountRow('a1'));
  const { promise: held, resolve: release } = Promise.withResolvers<void>();
  const failing = s.domains.transaction(async (tx) => {
    await tx.insert({ accountId: 'a1', origin: 'https://a.example', status: 'active', createdAt: 'x' });
    await held;
    throw new Error('changed my mind');
  });
  // Another request's write, started while the transaction is open.
  const other = s.accounts.insert(accountRow('a2'));
  release();
  await expect(failing).rejects.toThrow('changed my mind');
  expect(await other).toBe(true);
  expect(await s.accounts.findById('a2')).toBeDefined();
  expect(await s.domains.find('a1', 'https://a.example')).toBeUndefined();
});

test('transactions run one after the other: a check-then-insert cannot be overtaken', async () => {
  using s = setup();
  await s.accounts.insert(accountRow('a1'));
  const origin = 'https://b.example';
  const insertOnce = () =>
    s.domains.transaction(async (tx) => {
      if (await tx.find('a1', origin)) return false;
      await Promise.resolve();
      await tx.insert({ accountId: 'a1', origin, status: 'pending', createdAt: 'x' });
      return true;
    });
  const results = await Promise.all([insertOnce(), insertOnce(), insertOnce()]);
  expect(results.filter(Boolean)).toHaveLength(1);
  expect(await s.domains.list('a1')).toHaveLength(1);
});

test('a transaction that fills the disk fails with the disk error, not a failed rollback, and the next one runs', async () => {
  using dir = tempDir();
  const database = openDatabase(join(dir.path, 'data'));
  try {
    const accounts = createAccountsStore(database.db);
    const domains = createDomainsStore(database.db);
    await accounts.insert(accountRow('a1'));
    // SQLite's own "disk full" once the file would grow; it rolls the transaction back itself.
    const { page_count } = database.sqlite.query('PRAGMA page_count').get() as { page_count: number };
    database.sqlite.run(`PRAGMA max_page_count = ${page_count}`);
    const filling = domains.transaction(async (tx) => {
      for (let i = 0; i < 200; i++)
        await tx.insert({
          accountId: 'a1',
          origin: `https://${'x'.repeat(60)}${i}.example`,
          status: 'active',
          createdAt: 'x',
        });
    });
    await expect(filling).rejects.toMatchObject({ code: 'SQLITE_FULL', message: 'database or disk is full' });
    expect(database.sqlite.inTransaction).toBe(false);
    expect(await domains.list('a1')).toEqual([]);
    database.sqlite.run('PRAGMA max_page_count = 1073741823');
    await domains.transaction((tx) =>
      tx.insert({ accountId: 'a1', origin: 'https://a.example', status: 'active', createdAt: 'x' }),
    );
    expect((await domains.list('a1')).map((row) => row.origin)).toEqual(['https://a.example']);
  } finally {
    database.close();
  }
});
