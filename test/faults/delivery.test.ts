/**
 * The delivery queue across a crash and a stop of a real server process (`bun cli/bin.ts
 * serve` on SQLite): kill -9 with events queued and attempts in flight loses nothing;
 * SIGTERM lets attempts in flight finish and leaves the rest queued.
 */
import { expect, test } from 'bun:test';
import { join } from 'node:path';
import { createDeliveryStore } from '../../src/db/delivery-store.ts';
import { openDatabase } from '../../src/db/client.ts';
import { newEvent } from '../../src/delivery/events.ts';
import { PER_ENDPOINT } from '../../src/delivery/worker.ts';
import { callJson, runCommand, SOURCE_CLI, startServe } from '../helpers/process.ts';
import { startReceiver } from '../helpers/receiver.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const ENV = { CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.2/32', CALC_SHUTDOWN_TIMEOUT: '8' };
const EMAIL = 'owner@shop.example';
const PASSWORD = 'correct horse battery';

/** A Base owner with an endpoint on `url`; answers the account id. */
async function ownerWithEndpoint(base: string, data: string, url: string): Promise<string> {
  const signup = await callJson(base, 'POST', '/v1/auth/signup', { email: EMAIL, password: PASSWORD });
  expect(signup.status).toBe(201);
  const plan = await runCommand(SOURCE_CLI, [
    'admin',
    'accounts',
    'set-plan',
    '--email',
    EMAIL,
    '--plan',
    'base',
    '--data',
    data,
  ]);
  expect(plan.exitCode).toBe(0);
  const saved = await callJson(base, 'PUT', '/v1/account/results-endpoint', { url }, signup.json.token);
  expect(saved.status).toBe(201);
  return signup.json.account.id;
}

/** Queues events beside the running server, as another writer of the data directory would. */
function queue(data: string, accountId: string, count: number): string[] {
  const database = openDatabase(data);
  try {
    const store = createDeliveryStore(database.db);
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const event = newEvent(accountId, 'usage.warning', { i }, new Date());
      void store.add(event, Date.now());
      ids.push(event.id);
    }
    return ids;
  } finally {
    database.close();
  }
}

function statuses(data: string): Record<string, number> {
  const database = openDatabase(data);
  try {
    const rows = database.sqlite
      .query(
        "SELECT status || CASE WHEN lease_owner IS NULL THEN '' ELSE '+leased' END AS s, count(*) AS n FROM delivery_events GROUP BY 1",
      )
      .all() as { s: string; n: number }[];
    return Object.fromEntries(rows.map((r) => [r.s, r.n]));
  } finally {
    database.close();
  }
}

/** An endpoint that holds every delivery until `release()`: attempts stay in flight meanwhile. */
function heldReceiver() {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const receiver = startReceiver(async () => {
    await held;
    return new Response('ok');
  });
  return { receiver, release };
}

test('kill -9 with events queued and attempts in flight: after the restart every event arrives, none is lost', async () => {
  using dir = tempDir();
  const data = join(dir.path, 'data');
  // The first deliveries are in flight when the server dies.
  const { receiver, release } = heldReceiver();
  try {
    const first = await startServe(SOURCE_CLI, ['--data', data], ENV);
    const accountId = await ownerWithEndpoint(first.url, data, receiver.url());
    const ids = queue(data, accountId, 20);
    await receiver.waitFor(PER_ENDPOINT, 15_000);
    first.proc.kill('SIGKILL');
    await first.proc.exited;
    expect(statuses(data)).toEqual({ 'pending+leased': PER_ENDPOINT, pending: 20 - PER_ENDPOINT });

    receiver.answerWith(() => new Response('ok'));
    release();
    const second = await startServe(SOURCE_CLI, ['--data', data], ENV);
    try {
      await receiver.waitFor(20 + PER_ENDPOINT, 15_000);
      // Every event arrived; the ones in flight at the crash arrived twice (at least once).
      expect(new Set(receiver.ids())).toEqual(new Set(ids));
      const deadline = Date.now() + 10_000;
      while ((statuses(data).delivered ?? 0) < 20 && Date.now() < deadline) await Bun.sleep(50);
      expect(statuses(data)).toEqual({ delivered: 20 });
    } finally {
      expect((await second.stop()).exitCode).toBe(0);
    }
  } finally {
    release();
    await receiver.stop();
  }
}, 60_000);

test('SIGTERM: no new attempt starts, the attempts in flight finish within the deadline, the rest stay queued', async () => {
  using dir = tempDir();
  const data = join(dir.path, 'data');
  const { receiver, release } = heldReceiver();
  try {
    const server = await startServe(SOURCE_CLI, ['--data', data], ENV);
    const accountId = await ownerWithEndpoint(server.url, data, receiver.url());
    queue(data, accountId, 10);
    await receiver.waitFor(PER_ENDPOINT, 15_000);
    server.proc.kill('SIGTERM');
    // Once it listens no more, the server is stopping: only then do the held attempts end.
    for (;;) {
      const refused = await fetch(`${server.url}/healthz`).then(
        () => false,
        () => true,
      );
      if (refused) break;
      await Bun.sleep(20);
    }
    release();
    expect(await server.proc.exited).toBe(0);
    expect(receiver.received).toHaveLength(PER_ENDPOINT);
    expect(statuses(data)).toEqual({ delivered: PER_ENDPOINT, pending: 10 - PER_ENDPOINT });
  } finally {
    release();
    await receiver.stop();
  }
}, 60_000);
