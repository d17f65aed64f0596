import { join } from 'node:path';
import { createApp, type AppOptions } from '../../src/app.ts';
import { loadServerConfig, type ServeFlags } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { tempDir } from './temp-dir.ts';
import { type TestDatabase, testDatabase } from './test-database.ts';

export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-0123456789';
const TEST_HEADER_KEY = new Uint8Array(32).fill(7);

export interface TestAppOptions {
  flags?: ServeFlags;
  env?: Record<string, string>;
  now?: () => Date;
  resolve?: AppOptions['resolve'];
  webhookTimeoutMs?: number;
  /** Another server on this app's database (its own data directory and caches); dispose it first. */
  sameDatabaseAs?: { connectAgain(): TestDatabase };
}

/** One `msg: "request"` line of the access log. */
interface RequestLine {
  msg: string;
  method: string;
  path: string;
  status: number;
  requestId: string;
}

/**
 * The real app on a real, migrated database: a SQLite file in a temp dir, or a fresh
 * PostgreSQL database when `CALC_TEST_DATABASE=postgres` (see test-database.ts). Requests
 * go through `handle` (native routes first, then Elysia, as when serving). Log lines are
 * captured so tests can check what is logged.
 */
export function testApp(options: TestAppOptions = {}) {
  const dir = tempDir();
  const config = loadServerConfig({ data: join(dir.path, 'data'), ...options.flags }, { ...options.env });
  const store = options.sameDatabaseAs?.connectAgain() ?? testDatabase(config.dataDir);
  const database = store.backend;
  const logs: string[] = [];
  const built = createApp({
    config,
    database,
    jwtSecret: TEST_JWT_SECRET,
    headerKey: TEST_HEADER_KEY,
    resolve: options.resolve,
    webhookTimeoutMs: options.webhookTimeoutMs,
    now: options.now,
    logger: createLogger((line) => logs.push(line)),
  });

  async function request(
    method: string,
    path: string,
    init: { body?: unknown; headers?: Record<string, string>; token?: string } = {},
  ) {
    const headers: Record<string, string> = { ...init.headers };
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    let body: string | undefined;
    if (init.body !== undefined) {
      body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await built.handle(new Request(`http://calc.test${path}`, { method, headers, body }));
    const text = await response.text();
    let json: any;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, text, json };
  }

  /**
   * Waits until, for each of `matches`, a request's log line it accepts is written (the
   * access log writes it after the answer is sent), then returns every request line so far.
   */
  async function requestLines(...matches: ((line: RequestLine) => boolean)[]): Promise<RequestLine[]> {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const lines = logs.map((line) => JSON.parse(line) as RequestLine).filter((line) => line.msg === 'request');
      if (matches.every((match) => lines.some(match))) return lines;
      if (Date.now() > deadline) throw new Error(`no such request line among ${JSON.stringify(lines)}`);
      await Bun.sleep(1);
    }
  }

  /** How many rows `from` (a table, optionally with its WHERE clause) holds. */
  async function count(from: string, ...params: unknown[]): Promise<number> {
    const [row] = await store.sql(`SELECT count(*) AS n FROM ${from}`, ...params);
    return Number(row?.n);
  }

  let counter = 0;
  /** Signs up a fresh account and returns its token, key and id. */
  async function signup(
    email = `owner${++counter}-${Math.random().toString(36).slice(2, 8)}@shop.example`,
    password = 'correct horse battery',
  ) {
    const res = await request('POST', '/v1/auth/signup', { body: { email, password } });
    if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${res.text}`);
    return {
      token: res.json.token as string,
      apiKey: res.json.account.apiKey as string,
      id: res.json.account.id as string,
      email,
      password,
    };
  }

  return {
    ...built,
    config,
    database,
    dir: dir.path,
    logs,
    request,
    requestLines,
    signup,
    sql: store.sql,
    tables: store.tables,
    count,
    breakConnection: store.breakConnection,
    connectAgain: store.connectAgain,
    [Symbol.dispose]() {
      // Takes no new delivery attempt: the database is about to close.
      void built.delivery.stop(0);
      store.close(built.ready);
      dir[Symbol.dispose]();
    },
  };
}

export type TestApp = ReturnType<typeof testApp>;
