/**
 * `calc results endpoint …` as separate processes against a real server, delivering to a
 * real endpoint on 127.0.0.2.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { Webhook } from 'standardwebhooks';
import { jsonOf, startCliSession, type CliSession } from '../helpers/cli-session.ts';
import { type Receiver, startReceiver } from '../helpers/receiver.ts';

setDefaultTimeout(60_000);

let session: CliSession;
let receiver: Receiver;
beforeAll(async () => {
  session = await startCliSession({ serveEnv: { CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.2/32' } });
  receiver = startReceiver();
}, 60_000);
afterAll(async () => {
  await receiver.stop();
  await session[Symbol.asyncDispose]();
});

describe('calc results endpoint', () => {
  test('set (secret once), show, test, deliveries, resend, rotate-secret: each with --json', async () => {
    const owner = await session.signedIn('base');
    const run = (args: string[]) => session.calc(['results', 'endpoint', ...args], { env: owner.env });

    const set = await run(['set', '--url', receiver.url(), '--events', 'result.submitted', '--json']);
    expect(set.exitCode).toBe(0);
    const saved = jsonOf<{ endpoint: { events: string[]; secretLast4: string }; secret: string }>(set.stdout);
    expect(saved.secret).toStartWith('whsec_');
    expect(saved.endpoint.events).toEqual(['result.submitted']);

    const shown = await run(['show']);
    expect(shown.stdout).toContain(receiver.url());
    expect(shown.stdout).toContain(`whsec_…${saved.secret.slice(-4)}`);
    expect(shown.stdout).not.toContain(saved.secret);
    expect(jsonOf<{ endpoint: unknown }>((await run(['show', '--json'])).stdout).endpoint).toEqual(saved.endpoint);

    const tested = await run(['test']);
    expect(tested.exitCode).toBe(0);
    expect(tested.stdout).toContain('ok (HTTP 200)');
    const eventId = /Event:\s+(msg_\w+)/.exec(tested.stdout)?.[1] ?? '';
    const got = receiver.received.at(-1);
    expect(got?.headers['webhook-id']).toBe(eventId);
    expect(new Webhook(saved.secret).verify(got?.body ?? '', got?.headers ?? {})).toMatchObject({ type: 'test' });

    const resent = await run(['resend', eventId, '--json']);
    expect(jsonOf(resent.stdout)).toEqual({ eventId });
    await receiver.waitFor(2);
    expect(receiver.ids()).toEqual([eventId, eventId]);

    // The resend's attempt is recorded once it is made.
    let log = jsonOf<{ deliveries: { eventId: string; attempt: number }[] }>(
      (await run(['deliveries', '--json'])).stdout,
    );
    for (let i = 0; i < 100 && log.deliveries.length < 2; i++)
      log = jsonOf((await run(['deliveries', '--json'])).stdout);
    expect(log.deliveries.map((d) => [d.eventId, d.attempt])).toEqual([
      [eventId, 2],
      [eventId, 1],
    ]);
    const table = await run(['deliveries', '--event', eventId]);
    expect(table.stdout).toContain('ATTEMPT');
    expect(table.stdout).toContain(eventId);

    // Off a terminal the rotation asks for --yes and changes nothing.
    const refused = await run(['rotate-secret', '--json']);
    expect(refused.exitCode).toBe(1);
    expect(JSON.parse(refused.stderr).error.code).toBe('confirmation_required');
    const rotated = await run(['rotate-secret', '--yes', '--json']);
    expect(rotated.exitCode).toBe(0);
    const { secret } = jsonOf<{ secret: string }>(rotated.stdout);
    expect(secret).not.toBe(saved.secret);
    expect((await run(['show'])).stdout).toContain(`whsec_…${secret.slice(-4)}`);
  });

  test('a refused test exits 1; Free is refused with the server code; an unknown event is event_not_found', async () => {
    const owner = await session.signedIn('base');
    const run = (args: string[]) => session.calc(['results', 'endpoint', ...args], { env: owner.env });
    const failing = startReceiver(() => new Response('nope', { status: 500 }));
    try {
      expect((await run(['set', '--url', failing.url()])).exitCode).toBe(0);
      const tested = await run(['test']);
      expect(tested.exitCode).toBe(1);
      expect(tested.stdout).toContain('http_error (HTTP 500)');
      const unknown = await run(['resend', 'msg_nothere', '--json']);
      expect(unknown.exitCode).toBe(1);
      expect(JSON.parse(unknown.stderr).error.code).toBe('event_not_found');
    } finally {
      await failing.stop();
    }
    const free = await session.signedIn('free');
    const refused = await session.calc(['results', 'endpoint', 'set', '--url', receiver.url(), '--json'], {
      env: free.env,
    });
    expect(refused.exitCode).toBe(1);
    expect(JSON.parse(refused.stderr).error.code).toBe('plan_required');
    const none = await session.calc(['results', 'endpoint', 'show'], { env: free.env });
    expect(none.stdout).toContain('No results endpoint');
  });
});
