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
