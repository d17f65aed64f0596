/**
 * Two servers (`bun cli/bin.ts serve`) on one PostgreSQL, widget loads spread over both
 * past the whole quota at once: each server sees the thresholds crossed by its own loads
 * (and by the other's, read after a flush), and the owner still receives exactly one
 * `usage.warning` and one `usage.exhausted`.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { openPostgres } from '../../src/db/postgres/client.ts';
import { callJson, runCommand, SOURCE_CLI, startServe } from '../helpers/process.ts';
import { startPostgres, type ThrowawayPostgres } from '../helpers/postgres.ts';
import { startReceiver } from '../helpers/receiver.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { HOOK_TIMEOUT_MS } from '../helpers/timeouts.ts';

const QUOTA = 100;
const LOADS = 300;
const EMAIL = 'owner@shop.example';
const PASSWORD = 'correct horse battery';
const SHOP = 'https://shop.example';

let pg: ThrowawayPostgres;
beforeAll(async () => {
  pg = await startPostgres();
}, HOOK_TIMEOUT_MS);
afterAll(() => pg?.stop(), HOOK_TIMEOUT_MS);

test('300 loads at once over two servers on one PostgreSQL: one usage.warning and one usage.exhausted', async () => {
  using dir = tempDir();
  const env = {
    CALC_DATABASE_URL: await pg.createDatabase(),
    CALC_JWT_SECRET: 'shared-jwt-secret-for-both-servers-0123456789',
    CALC_WEBHOOK_KEY: 'ab'.repeat(32),
    CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.2/32',
    CALC_QUOTA_BASE: String(QUOTA),
    // Every load here comes from one address: the per-client limits are not what is tested.
    CALC_RATE_WIDGET_PER_MINUTE: '100000',
    CALC_RATE_WIDGET_PER_DAY: '100000',
  };
  const receiver = startReceiver();
  const database = await openPostgres(env.CALC_DATABASE_URL);
  const servers = await Promise.all([
    startServe(SOURCE_CLI, ['--data', join(dir.path, 'a')], env),
    startServe(SOURCE_CLI, ['--data', join(dir.path, 'b')], env),
  ]);
  let stopped = false;
  try {
    const [a, b] = servers;
    if (!a || !b) throw new Error('no server');
    const signup = await callJson(a.url, 'POST', '/v1/auth/signup', { email: EMAIL, password: PASSWORD });
    const { token } = signup.json;
    const { apiKey, id: accountId } = signup.json.account;
    const plan = await runCommand(SOURCE_CLI, ['admin', 'accounts', 'set-plan', '--email', EMAIL, '--plan', 'base'], {
      env,
    });
    expect(plan.exitCode).toBe(0);
    expect((await callJson(a.url, 'POST', '/v1/domains', { domain: SHOP }, token)).status).toBe(201);
    const saved = await callJson(a.url, 'PUT', '/v1/account/results-endpoint', { url: receiver.url() }, token);
    expect(saved.status).toBe(201);

    const statuses = await Promise.all(
      Array.from({ length: LOADS }, async (_, i) => {
        const server = i % 2 === 0 ? a : b;
        const answer = await fetch(`${server.url}/v1/widget/load`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: SHOP },
          body: JSON.stringify({ apiKey, domain: SHOP, calcId: 'bmi' }),
        });
        await answer.arrayBuffer();
        return { server: i % 2, status: answer.status };
      }),
    );
    // Both servers served loads, and the quota stopped them (each may pass it by what it
    // counts between two flushes).
    for (const server of [0, 1])
      expect(statuses.filter((s) => s.server === server && s.status === 200).length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s.status === 429).length).toBeGreaterThan(0);

    // A clean stop flushes both servers' counts and waits for the events they crossed.
    for (const server of servers) expect((await server.stop()).exitCode).toBe(0);
    stopped = true;
    const queued = (await database.db.$client`SELECT type FROM delivery_events ORDER BY type`) as { type: string }[];
    expect(queued.map((row) => row.type)).toEqual(['usage.exhausted', 'usage.warning']);
    // One server again delivers whatever the stop left queued.
    const restarted = await startServe(SOURCE_CLI, ['--data', join(dir.path, 'a')], env);
    try {
      await receiver.waitFor(2, 30_000);
      const deadline = Date.now() + 10_000;
      let delivered = 0;
      while (delivered < 2 && Date.now() < deadline) {
        const [row] = (await database.db.$client`SELECT count(*)::int AS n FROM delivery_events
          WHERE status = 'delivered'`) as { n: number }[];
        delivered = row?.n ?? 0;
        if (delivered < 2) await Bun.sleep(50);
      }
      expect(delivered).toBe(2);
      const events = receiver.received.map(
        (r) => new Webhook(saved.json.secret).verify(r.body, r.headers) as { type: string; data: unknown },
      );
      expect(events.map((e) => e.type).sort()).toEqual(['usage.exhausted', 'usage.warning']);
      expect(events.find((e) => e.type === 'usage.warning')?.data).toMatchObject({
        accountId,
        limitKind: 'quota',
        limit: QUOTA,
      });
    } finally {
      expect((await restarted.stop()).exitCode).toBe(0);
    }
  } finally {
    if (!stopped) for (const server of servers) await server.stop();
    await database.close();
    await receiver.stop();
  }
}, 120_000);
