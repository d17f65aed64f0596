/**
 * Two servers (`bun cli/bin.ts serve`) on one PostgreSQL share the delivery queue: 1,000
 * events, each attempted by exactly one of them, none twice and none missing.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import { openPostgres } from '../../src/db/postgres/client.ts';
import { createPgDeliveryStore } from '../../src/db/postgres/delivery-stores.ts';
import { newEvent } from '../../src/delivery/events.ts';
import { callJson, runCommand, SOURCE_CLI, startServe } from '../helpers/process.ts';
import { startPostgres, type ThrowawayPostgres } from '../helpers/postgres.ts';
import { startReceiver } from '../helpers/receiver.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { HOOK_TIMEOUT_MS } from '../helpers/timeouts.ts';

const EVENTS = 1000;
const EMAIL = 'owner@shop.example';
const PASSWORD = 'correct horse battery';

let pg: ThrowawayPostgres;
beforeAll(async () => {
  pg = await startPostgres();
}, HOOK_TIMEOUT_MS);
afterAll(() => pg?.stop(), HOOK_TIMEOUT_MS);

test('two servers on one PostgreSQL deliver 1,000 events: each exactly once, none missing', async () => {
  using dir = tempDir();
  const url = await pg.createDatabase();
  const env = {
    CALC_DATABASE_URL: url,
    CALC_JWT_SECRET: 'shared-jwt-secret-for-both-servers-0123456789',
    CALC_WEBHOOK_KEY: 'ab'.repeat(32),
    CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.2/32',
  };
  const receiver = startReceiver();
  const servers = await Promise.all([
    startServe(SOURCE_CLI, ['--data', join(dir.path, 'a')], env),
    startServe(SOURCE_CLI, ['--data', join(dir.path, 'b')], env),
  ]);
  const database = await openPostgres(url);
  try {
    const [a] = servers;
    if (!a) throw new Error('no server');
    const signup = await callJson(a.url, 'POST', '/v1/auth/signup', { email: EMAIL, password: PASSWORD });
    const plan = await runCommand(SOURCE_CLI, ['admin', 'accounts', 'set-plan', '--email', EMAIL, '--plan', 'base'], {
      env,
    });
    expect(plan.exitCode).toBe(0);
    const saved = await callJson(
      a.url,
      'PUT',
      '/v1/account/results-endpoint',
      { url: receiver.url() },
      signup.json.token,
    );
    expect(saved.status).toBe(201);

    // Queued by a third writer: both servers find them by polling and compete for them.
    const store = createPgDeliveryStore(database.db);
    const ids = new Set<string>();
    const accountId: string = signup.json.account.id;
    for (let i = 0; i < EVENTS; i++) {
      const event = newEvent(accountId, 'usage.warning', { i }, new Date());
      await store.add(event, Date.now());
      ids.add(event.id);
    }
    await receiver.waitFor(EVENTS, 60_000);
    // Every one recorded as delivered, with one attempt each and no lease left.
    const client = database.db.$client;
    const deadline = Date.now() + 10_000;
    let rows: { status: string; attempts: number; n: number }[] = [];
    for (;;) {
      rows = (await client`SELECT status, attempts, count(*)::int AS n FROM delivery_events
        WHERE lease_owner IS NULL GROUP BY 1, 2`) as typeof rows;
      if ((rows[0]?.n ?? 0) >= EVENTS || Date.now() > deadline) break;
      await Bun.sleep(50);
    }
    expect(rows).toEqual([{ status: 'delivered', attempts: 1, n: EVENTS }]);
    const received = receiver.ids();
    expect(received).toHaveLength(EVENTS);
    expect(new Set(received)).toEqual(ids);
    const [logged] = (await client`SELECT count(*)::int AS n FROM delivery_attempts`) as { n: number }[];
    expect(logged?.n).toBe(EVENTS);
  } finally {
    await database.close();
    for (const server of servers) expect((await server.stop()).exitCode).toBe(0);
    await receiver.stop();
  }
}, 120_000);
