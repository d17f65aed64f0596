import { expect, test } from 'bun:test';
import { join } from 'node:path';
import { openDatabase } from '../../../src/db/client.ts';
import { createUsageStore } from '../../../src/db/usage-store.ts';
import { createUsageCounter, periodOf } from '../../../src/usage/counter.ts';
import { tempDir } from '../../helpers/temp-dir.ts';

function setup() {
  const dir = tempDir();
  const database = openDatabase(join(dir.path, 'data'));
  database.sqlite.run(
    "INSERT INTO accounts (id, email, password_hash, plan, api_key, created_at) VALUES ('a1', 'a@x.example', 'h', 'free', 'pk_1', '2026-01-01T00:00:00Z')",
  );
  const store = createUsageStore(database.db);
  return {
    database,
    store,
    [Symbol.dispose]: () => {
      database.close();
      dir[Symbol.dispose]();
    },
  };
}

test('periodOf is the UTC calendar month', () => {
  expect(periodOf(new Date('2026-03-31T23:30:00-02:00'))).toBe('2026-04');
  expect(periodOf(new Date('2026-12-31T23:59:59Z'))).toBe('2026-12');
});

test('counts in memory, includes unflushed counts, writes on flush, refuses at the limit', () => {
  using s = setup();
  const counter = createUsageCounter(s.store);
  expect(counter.tryCount('a1', '2026-05', 2)).toBe(true);
  expect(counter.tryCount('a1', '2026-05', 2)).toBe(true);
  expect(counter.tryCount('a1', '2026-05', 2)).toBe(false);
  expect(counter.used('a1', '2026-05')).toBe(2);
  expect(s.store.loads('a1', '2026-05')).toBe(0);
  counter.flush();
  expect(s.store.loads('a1', '2026-05')).toBe(2);
  counter.flush();
  expect(s.store.loads('a1', '2026-05')).toBe(2);
});

test('a new counter starts from what is stored (restart)', () => {
  using s = setup();
  const first = createUsageCounter(s.store);
  for (let i = 0; i < 5; i++) first.tryCount('a1', '2026-05', 100);
  first.flush();
  const second = createUsageCounter(s.store);
  expect(second.used('a1', '2026-05')).toBe(5);
  expect(second.tryCount('a1', '2026-05', 5)).toBe(false);
});

test('prune forgets flushed old months but keeps unflushed counts', () => {
  using s = setup();
  const counter = createUsageCounter(s.store);
  counter.tryCount('a1', '2026-04', 10);
  counter.prune('2026-05');
  counter.flush();
  expect(s.store.loads('a1', '2026-04')).toBe(1);
});
