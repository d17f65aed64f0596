/**
 * The SQLite widget-config store answers an unchanged config from memory: every Extra load
 * asks for one. Held under the database's data version, it must still show a save, a
 * removal or an outcome at once, made by this connection or by another on the same file.
 */
import { expect, test } from 'bun:test';
import { join } from 'node:path';
import { createAccountsStore } from '../../../src/db/accounts-store.ts';
import { openDatabase } from '../../../src/db/client.ts';
import { createWidgetConfigStore } from '../../../src/db/widget-config-store.ts';
import { accountRow } from '../../helpers/store-dialects.ts';
import { tempDir } from '../../helpers/temp-dir.ts';

/** The SQLite store answers without a promise (every Extra load asks): anything else fails. */
function now<T>(answer: T | Promise<T>): T {
  if (answer instanceof Promise) throw new Error('the SQLite store answered with a promise');
  return answer;
}

const webhook = (url: string | null, updatedAt: string) => ({
  accountId: 'a1',
  calcId: 'bmi',
  webhookUrl: url,
  webhookHeaders: null,
  updatedAt,
});

test('one connection: a held config is answered as is until anything is committed, then read again', async () => {
  using dir = tempDir();
  const database = openDatabase(join(dir.path, 'data'));
  try {
    await createAccountsStore(database.db).insert(accountRow('a1'));
    const configs = createWidgetConfigStore(database.db);
    expect(now(configs.find('a1', 'bmi'))).toBeUndefined();
    await configs.saveWebhook(webhook('https://one.example/hook', '2026-01-01T00:00:01.000Z'));
    const saved = now(configs.find('a1', 'bmi'));
    expect(saved).toMatchObject({ webhookUrl: 'https://one.example/hook', webhookStatus: null });
    // Nothing committed since: the same row, from memory.
    expect(now(configs.find('a1', 'bmi'))).toBe(saved);
    await configs.saveStatuses([
      { accountId: 'a1', calcId: 'bmi', status: '{"at":"2026-01-01T00:00:02.000Z"}', at: '2026-01-01T00:00:02.000Z' },
    ]);
    expect(now(configs.find('a1', 'bmi'))?.webhookStatus).toBe('{"at":"2026-01-01T00:00:02.000Z"}');
    await configs.saveWebhook(webhook(null, '2026-01-01T00:00:03.000Z'));
    expect(now(configs.find('a1', 'bmi'))?.webhookUrl).toBeNull();
  } finally {
    database.close();
  }
});

test('two connections on one file: a save by the other is seen by the next load (its lookup, then the config)', async () => {
  using dir = tempDir();
  const [writer, reader] = [openDatabase(join(dir.path, 'data')), openDatabase(join(dir.path, 'data'))];
  try {
    await createAccountsStore(writer.db).insert(accountRow('a1'));
    const accounts = createAccountsStore(reader.db);
    const [saving, loading] = [createWidgetConfigStore(writer.db), createWidgetConfigStore(reader.db)];
    const load = () => {
      expect(accounts.widgetLookup('pk_a1', ['https://shop.example'], 'x')).toMatchObject({ account: { id: 'a1' } });
      return now(loading.find('a1', 'bmi'));
    };
    expect(load()).toBeUndefined();
    await saving.saveWebhook(webhook('https://one.example/hook', '2026-01-01T00:00:01.000Z'));
    expect(load()?.webhookUrl).toBe('https://one.example/hook');
    const held = load();
    expect(load()).toBe(held);
    await saving.saveWebhook(webhook('https://two.example/hook', '2026-01-01T00:00:02.000Z'));
    expect(load()?.webhookUrl).toBe('https://two.example/hook');
  } finally {
    writer.close();
    reader.close();
  }
});
