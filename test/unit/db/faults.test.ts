import { Database } from 'bun:sqlite';
import { describe, expect, test } from 'bun:test';
import { SQL } from 'bun';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/bun-sql';
import { DatabaseTimeout, faultOf } from '../../../src/db/faults.ts';
import { usePostgres } from '../../helpers/postgres.ts';
import { tempDir } from '../../helpers/temp-dir.ts';

const pg = usePostgres();

/** What `work` throws (it must throw). */
async function thrown(work: () => unknown): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

/** A SQLite file with one table, in a temp dir; `limit()` caps it at its current size. */
function sqliteFile() {
  const dir = tempDir();
  const file = join(dir.path, 'f.db');
  const db = new Database(file, { create: true, strict: true });
  db.run('CREATE TABLE t (x TEXT UNIQUE)');
  return {
    file,
    db,
    /** SQLite's own "disk full" once the file would grow (max_page_count). */
    limit: () => {
      const { page_count } = db.query('PRAGMA page_count').get() as { page_count: number };
      db.run(`PRAGMA max_page_count = ${page_count}`);
    },
    [Symbol.dispose]: () => {
      db.close();
      dir[Symbol.dispose]();
    },
  };
}

describe('faults of SQLite', () => {
  test("a full database is storage_full with Retry-After; the cause is SQLite's own words", async () => {
    using f = sqliteFile();
    f.limit();
    const error = await thrown(() => {
      for (let i = 0; i < 100; i++) f.db.run('INSERT INTO t VALUES (?)', [`${i}${'x'.repeat(2000)}`]);
    });
    const fault = faultOf(error);
    expect(fault?.error.status).toBe(503);
    expect(fault?.error.code).toBe('storage_full');
    expect(fault?.error.headers).toEqual({ 'Retry-After': '30' });
    expect(fault?.cause).toBe('SQLiteError SQLITE_FULL: database or disk is full');
  });

  test('a read-only database is not_ready; a constraint or a syntax error is no fault', async () => {
    using f = sqliteFile();
    const readOnly = new Database(f.file, { readonly: true });
    try {
      const fault = faultOf(await thrown(() => readOnly.run("INSERT INTO t VALUES ('a')")));
      expect(fault?.error.code).toBe('not_ready');
      expect(fault?.error.headers).toEqual({ 'Retry-After': '1' });
      expect(fault?.cause).toStartWith('SQLiteError SQLITE_READONLY');
    } finally {
      readOnly.close();
    }
    f.db.run("INSERT INTO t VALUES ('a')");
    expect(faultOf(await thrown(() => f.db.run("INSERT INTO t VALUES ('a')")))).toBeNull();
    expect(faultOf(await thrown(() => f.db.run('INSERT INTO nowhere VALUES (1)')))).toBeNull();
    expect(faultOf(new TypeError('x is undefined'))).toBeNull();
    expect(faultOf('a string')).toBeNull();
  });
});

describe('faults of PostgreSQL', () => {
  test('a refused connection is not_ready', async () => {
    // A port nobody listens on: a free one, taken and let go.
    const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
    const port = probe.port;
    probe.stop(true);
    const client = new SQL({ url: `postgres://postgres@127.0.0.1:${port}/none`, max: 1, connectionTimeout: 2 });
    try {
      const fault = faultOf(await thrown(() => client`SELECT 1`));
      expect(fault?.error.code).toBe('not_ready');
      expect(fault?.cause).toStartWith('PostgresError ERR_POSTGRES_CONNECTION_');
    } finally {
      await client.close();
    }
  });

  test('a session ended by the server (57P01) is not_ready through drizzle, whose query text stays out of the cause; a syntax error is no fault', async () => {
    const client = new SQL({ url: await pg().createDatabase(), max: 1 });
    const db = drizzle({ client });
    try {
      const ended = await thrown(() => db.execute(sql`SELECT pg_terminate_backend(pg_backend_pid()), ${'pk_secret'}`));
      const fault = faultOf(ended);
      expect(fault?.error.code).toBe('not_ready');
      expect(fault?.cause).toBe('PostgresError 57P01: terminating connection due to administrator command');
      expect(String((ended as Error).message)).toContain('pg_terminate_backend');
      expect(faultOf(await thrown(() => db.execute(sql`SELEC 1`)))).toBeNull();
    } finally {
      await client.close();
    }
  });

  test('a call given up on at its deadline is not_ready', () => {
    const fault = faultOf(new DatabaseTimeout('PostgreSQL did not answer within 1500 ms'));
    expect(fault?.error.code).toBe('not_ready');
    expect(fault?.cause).toBe('DatabaseTimeout: PostgreSQL did not answer within 1500 ms');
  });
});
