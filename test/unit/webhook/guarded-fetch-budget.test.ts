import { describe, expect, test } from 'bun:test';
import { guardedFetch } from '../../../src/webhook/guarded-fetch.ts';
import type { Resolver } from '../../../src/webhook/url-check.ts';
import { ALLOWED, countingResolver, deps, trackedTargets } from './webhook-test-kit.ts';

const target = trackedTargets();

/** Answers headers only after `ms` (a deliberately slow target). */
const slowHeaders = (ms: number) => async (): Promise<Response> => {
  await Bun.sleep(ms);
  return Response.json({ late: true });
};

/** Sends headers at once, then one byte every `everyMs` for `bytes` bytes. */
const drip = (bytes: number, everyMs: number) => (): Response => {
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sent === 0) {
        controller.enqueue(new TextEncoder().encode('{'));
      } else {
        await Bun.sleep(everyMs);
        controller.enqueue(new TextEncoder().encode(' '));
      }
      sent += 1;
      if (sent >= bytes) {
        controller.enqueue(new TextEncoder().encode('}'));
        controller.close();
      }
    },
  });
  return new Response(stream, { headers: { 'Content-Type': 'application/json' } });
};

async function timed<T>(run: () => Promise<T>): Promise<{ result: T; elapsed: number }> {
  const begin = performance.now();
  const result = await run();
  return { result, elapsed: performance.now() - begin };
}

describe('one time budget for everything', () => {
  test.each([
    [300, 10_000],
    [150, 2_000],
  ])(
    'headers that never come in time: timeoutMs %d, server waits %d ms -> timeout at the budget',
    async (timeoutMs, wait) => {
      const server = target(ALLOWED, slowHeaders(wait));
      const { result, elapsed } = await timed(() => guardedFetch(server.url(), {}, deps({ timeoutMs })));
      expect(result).toMatchObject({ outcome: 'timeout', httpStatus: null });
      expect(elapsed).toBeGreaterThanOrEqual(timeoutMs - 5);
      expect(elapsed).toBeLessThan(timeoutMs + 200);
      expect(result.durationMs).toBeGreaterThanOrEqual(timeoutMs - 5);
      expect(server.hits).toBe(1);
    },
  );

  test('a body dripping 1 byte every 100 ms -> timeout within the budget, not later', async () => {
    const server = target(ALLOWED, drip(100, 100));
    const { result, elapsed } = await timed(() => guardedFetch(server.url(), {}, deps({ timeoutMs: 500 })));
    expect(result).toMatchObject({ outcome: 'timeout', httpStatus: 200 });
    expect(elapsed).toBeGreaterThanOrEqual(495);
    expect(elapsed).toBeLessThan(700);
  });

  test('a body that finishes just inside the budget is ok (the drip server works)', async () => {
    const server = target(ALLOWED, drip(3, 50));
    const result = await guardedFetch(server.url(), {}, deps({ timeoutMs: 1000 }));
    expect(result).toMatchObject({ outcome: 'ok', body: {} });
  });

  test('a lookup that never answers -> timeout at the budget', async () => {
    const resolve: Resolver = () => new Promise<string[]>(() => {});
    const { result, elapsed } = await timed(() =>
      guardedFetch('http://slow-dns.example.test:8080/', {}, deps({ resolve, timeoutMs: 300 })),
    );
    expect(result).toMatchObject({ outcome: 'timeout', httpStatus: null });
    expect(elapsed).toBeGreaterThanOrEqual(295);
    expect(elapsed).toBeLessThan(500);
  });

  // Each phase alone fits the budget; together they do not. Separate per-phase
  // timers would let the request run on (and reach the headers) past the budget.
  const slowDripAfterHeaders = async (): Promise<Response> => {
    await Bun.sleep(250);
    return drip(20, 50)();
  };
  test.each([
    ['slow lookup + slow headers', 250, slowHeaders(250), null],
    ['slow lookup + dripping body', 250, drip(20, 50), 200],
    ['slow headers + dripping body', 0, slowDripAfterHeaders, 200],
  ] as const)('%s share one budget -> timeout at the budget', async (_label, lookupMs, handler, httpStatus) => {
    const server = target(ALLOWED, handler);
    const answers = countingResolver({ 'shop.example.test': [[ALLOWED]] });
    const resolve: Resolver = async (hostname) => {
      if (lookupMs > 0) await Bun.sleep(lookupMs); // a deliberately slow DNS server
      return answers(hostname);
    };
    const { result, elapsed } = await timed(() =>
      guardedFetch(`http://shop.example.test:${server.port}/`, {}, deps({ resolve, timeoutMs: 300 })),
    );
    expect(result).toMatchObject({ outcome: 'timeout', httpStatus });
    expect(elapsed).toBeLessThan(420);
  });

  test('the real default: 5000 ms when no timeoutMs is given', async () => {
    const server = target(ALLOWED, slowHeaders(10_000));
    const { timeoutMs: _omit, ...rest } = deps();
    const { result, elapsed } = await timed(() => guardedFetch(server.url(), {}, rest));
    expect(result.outcome).toBe('timeout');
    expect(elapsed).toBeGreaterThanOrEqual(5000);
    expect(elapsed).toBeLessThan(5300);
  }, 15_000);
});
