/**
 * Results delivery: the time from queueing an event on a server to the owner's endpoint
 * receiving it, on loopback. The real app on SQLite in a temp directory (the in-process
 * test app), its delivery loop running, an endpoint on 127.0.0.2; events queued one at a
 * time as a standalone event is (`enqueue`), each timed until the endpoint's handler sees it.
 *
 * Env: DELIVERY_EVENTS (500), DELIVERY_WARMUP (50).
 */
import { startReceiver } from '../test/helpers/receiver.ts';
import { testApp } from '../test/helpers/test-app.ts';
import { type BenchResults, printTable, progress, resultsHeader, writeResults } from './lib/report.ts';
import { median, quantile, round2 } from './lib/sampling.ts';

const EVENTS = Number(process.env.DELIVERY_EVENTS ?? 500);
const WARMUP = Number(process.env.DELIVERY_WARMUP ?? 50);
const TARGET_MEDIAN_MS = 100;

export async function run(): Promise<BenchResults> {
  const receiver = startReceiver();
  using app = testApp({ env: { CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.2/32' } });
  try {
    const owner = await app.signup();
    await app.accounts.setPlan(owner.id, 'base');
    const saved = await app.request('PUT', '/v1/account/results-endpoint', {
      token: owner.token,
      body: { url: receiver.url() },
    });
    if (saved.status !== 201) throw new Error(`the endpoint was not saved: ${saved.text}`);
    await app.delivery.start();
    const latencies: number[] = [];
    progress(`delivery: ${WARMUP} + ${EVENTS} events, one at a time`);
    for (let i = 0; i < WARMUP + EVENTS; i++) {
      const started = performance.now();
      const id = await app.events.enqueue(owner.id, 'usage.warning', { i });
      if (id === null) throw new Error('the event was not queued');
      await receiver.waitFor(i + 1);
      if (i >= WARMUP) latencies.push(performance.now() - started);
      await app.delivery.idle();
    }
    const results: BenchResults = {
      ...resultsHeader('delivery'),
      rows: [
        {
          metric: 'queued → received by the endpoint (SQLite, loopback): median',
          value: round2(median(latencies)),
          unit: 'ms',
          target: `≤ ${TARGET_MEDIAN_MS}`,
          pass: median(latencies) <= TARGET_MEDIAN_MS,
          note: 'enqueue (insert) → wake → claim → sign → guarded POST → the handler sees it',
        },
        {
          metric: 'queued → received: 95th percentile',
          value: round2(quantile(latencies, 0.95)),
          unit: 'ms',
          target: '',
          pass: null,
        },
      ],
      events: EVENTS,
      latenciesMs: latencies.map(round2),
    };
    writeResults('delivery', results);
    return results;
  } finally {
    await app.delivery.stop(performance.now() + 5000);
    await receiver.stop();
  }
}

if (import.meta.main) printTable(await run());
