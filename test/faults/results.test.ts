/**
 * A submitted result across a crash of a real server process (`bun cli/bin.ts serve` on
 * SQLite): every submission answered 202 before kill -9 is in the database with its
 * `result.submitted` event, and the restarted server delivers those events.
 */
import { expect, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { join } from 'node:path';
import { SHOP_ORIGIN } from '../helpers/owners.ts';
import { SOURCE_CLI, startServe } from '../helpers/process.ts';
import { startReceiver } from '../helpers/receiver.ts';
import { servedResultsOwner, submission } from '../helpers/results.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const ENV = {
  CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.2/32',
  CALC_RATE_WIDGET_PER_MINUTE: '0',
  CALC_RATE_WIDGET_PER_DAY: '0',
};

test('kill -9 right after 202s: each accepted result and its event survive; the restart delivers the events', async () => {
  using dir = tempDir();
  const data = join(dir.path, 'data');
  // The endpoint holds every delivery until released: events stay queued or in flight.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const receiver = startReceiver(async () => {
    await held;
    return new Response('ok');
  });
  try {
    const first = await startServe(SOURCE_CLI, ['--data', data], ENV);
    const { apiKey } = await servedResultsOwner(first.url, data, receiver.url());

    // Many submissions at once; the server dies as soon as 40 of them are answered 202.
    const accepted: string[] = [];
    let killed = false;
    const sends = Array.from({ length: 120 }, (_, i) =>
      fetch(`${first.url}/v1/widget/submit`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', origin: SHOP_ORIGIN },
        body: JSON.stringify(submission({ apiKey }, { contact: { email: `visitor${i}@example.net` } })),
      }).then(
        async (response) => {
          if (response.status !== 202) return;
          accepted.push((await response.json()).id);
          if (accepted.length >= 40 && !killed) {
            killed = true;
            first.proc.kill('SIGKILL');
          }
        },
        () => {},
      ),
    );
    await Promise.all(sends);
    await first.proc.exited;
    expect(killed).toBe(true);

    const database = new Database(join(data, 'calc.db'));
    try {
      const stored = database
        .query(
          'SELECT r.id, r.event_id AS eventId, e.status FROM results r LEFT JOIN delivery_events e ON e.id = r.event_id',
        )
        .all() as { id: string; eventId: string | null; status: string | null }[];
      const byId = new Map(stored.map((row) => [row.id, row]));
      for (const id of accepted) {
        expect(byId.get(id)?.eventId ?? null, id).not.toBeNull();
        expect(byId.get(id)?.status, id).toBe('pending');
      }
      // Whatever was stored has its event: nothing half-written.
      expect(stored.every((row) => row.status === 'pending')).toBe(true);
    } finally {
      database.close();
    }

    release();
    const second = await startServe(SOURCE_CLI, ['--data', data], ENV);
    try {
      // Deliveries the first server had in flight arrived too (at least once): wait for every id.
      const deadline = Date.now() + 30_000;
      const delivered = () => new Set(receiver.received.map((entry) => JSON.parse(entry.body).data.id));
      while (accepted.some((id) => !delivered().has(id)) && Date.now() < deadline)
        await receiver.waitFor(receiver.received.length + 1, Math.max(1, deadline - Date.now())).catch(() => {});
      expect(accepted.filter((id) => !delivered().has(id))).toEqual([]);
    } finally {
      expect((await second.stop()).exitCode).toBe(0);
    }
  } finally {
    release();
    await receiver.stop();
  }
}, 90_000);
