/**
 * What a widget load's webhook pull costs the server (investigation tool; not part of
 * `npm run bench`). One process holds the real app (`createApp` on a migrated SQLite
 * database, through the test helpers) and answers loads through `handle`, 8 in flight,
 * without an HTTP server in front; the webhook target runs as its own process
 * (bench/webhook-target.ts) pinned to the other core. Variants, alternated block by block:
 *
 *   plain     an Extra owner without a webhook (the pull reads the config and stops)
 *   webhook   an Extra owner whose bmi webhook answers at once
 *   headers   the same with one configured (encrypted) header
 *   fetch     a plain fetch of the same target + JSON (what a bare server's pull costs)
 *
 * The figure is process CPU µs per load (user + system, all threads: Bun's HTTP client
 * thread included), the median of the blocks; it moves much less than wall time when
 * other processes share the machine.
 *
 *   taskset -c 1 bun bench/pull-path.ts     (env: VARIANTS=plain,webhook ROUNDS=5 CALLS=20000)
 */
import { join } from 'node:path';
import { CLIENT_CORE, pinned, startListening } from './lib/processes.ts';
import { ROOT } from './lib/report.ts';
import { median, round1 } from './lib/sampling.ts';
import { extraOwner, extraShop, SHOP_ORIGIN } from '../test/helpers/owners.ts';
import { testApp } from '../test/helpers/test-app.ts';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const CALLS = Number(process.env.CALLS ?? 20_000);
const IN_FLIGHT = 8;
const BIG = '1000000000';

const target = await startListening(pinned(CLIENT_CORE, [process.execPath, join(ROOT, 'bench', 'webhook-target.ts')]));
const url = `${target.url}/prefill`;
const app = testApp({
  env: {
    CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.2/32',
    CALC_QUOTA_EXTRA: BIG,
    CALC_RATE_WIDGET_PER_MINUTE: BIG,
    CALC_RATE_WIDGET_PER_DAY: BIG,
  },
});
try {
  const plain = await extraOwner(app);
  await app.request('POST', '/v1/domains', { token: plain.token, body: { domain: SHOP_ORIGIN } });
  const hooked = await extraShop(app, url);
  const withHeader = await extraShop(app, url, { Authorization: 'Bearer bench-0123456789abcdef' });
  const load = (apiKey: string) => async () => {
    const body = JSON.stringify({ apiKey, domain: SHOP_ORIGIN, calcId: 'bmi' });
    const headers = { 'content-type': 'application/json', origin: SHOP_ORIGIN };
    return (await app.handle(new Request('http://calc.test/v1/widget/load', { method: 'POST', headers, body }))).text();
  };
  const variants: Record<string, () => Promise<string>> = {
    plain: load(plain.apiKey),
    webhook: load(hooked.apiKey),
    headers: load(withHeader.apiKey),
    fetch: async () => {
      const response = await fetch(url, { signal: AbortSignal.timeout(5000), redirect: 'manual' });
      return JSON.stringify(await response.json());
    },
  };
  const names = (process.env.VARIANTS ?? Object.keys(variants).join(',')).split(',');
  // Every load variant must answer a load, and the pulling ones must be pre-filled.
  for (const name of names) {
    const answer = await variants[name]?.();
    if (answer === undefined) throw new Error(`unknown variant ${name}`);
    if (name !== 'plain' && !answer.includes('"heightCm":180'))
      throw new Error(`${name} was not pre-filled: ${answer}`);
  }
  const block = async (call: () => Promise<string>, calls: number): Promise<number> => {
    let started = 0;
    const before = process.cpuUsage();
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (started++ < calls) await call();
      }),
    );
    const used = process.cpuUsage(before);
    app.logs.length = 0; // the captured access-log lines
    return (used.user + used.system) / calls;
  };
  for (const name of names) await block(variants[name] as () => Promise<string>, CALLS / 4);
  const cpu: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of names) {
      Bun.gc(true);
      cpu[name]?.push(await block(variants[name] as () => Promise<string>, CALLS));
    }
  }
  for (const name of names) {
    const samples = cpu[name] ?? [];
    console.log(
      `${name.padEnd(8)} ${round1(median(samples))} µs CPU per load (blocks: ${samples.map(round1).join(', ')})`,
    );
  }
} finally {
  app[Symbol.dispose]();
  await target.stop();
}
