import { beforeAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import { ensureCompiled, runCommand, startServe } from '../helpers/process.ts';
import { tempDir } from '../helpers/temp-dir.ts';

let calc: string;
beforeAll(async () => {
  calc = await ensureCompiled();
}, 120_000);

const PASSWORD = 'correct horse battery';
// High enough that the per-client limits never refuse this test's own traffic.
const SERVE_ARGS = ['--quota-base', '100000', '--rate-widget-per-minute', '100000', '--rate-widget-per-day', '100000'];
const CALCULATORS = ['bmi', 'tip', 'loan', 'vat'];
const ORIGINS = [
  'https://shop.example',
  'https://blog.shop.example',
  'https://a.shop.example',
  'https://b.shop.example',
  'https://c.shop.example',
];
const CLIENTS = 20;
const LOADS = 5000;

async function signIn(api: string) {
  const response = await fetch(`${api}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'owner@shop.example', password: PASSWORD }),
  });
  expect(response.status).toBe(200);
  return { authorization: `Bearer ${((await response.json()) as { token: string }).token}` };
}

const usageOf = async (api: string, auth: Record<string, string>) =>
  (await (await fetch(`${api}/v1/usage`, { headers: auth })).json()) as {
    total: number;
    period: { used: number };
    rows: { calcId: string; domain: string; loads: number }[];
  };

test('5,000 loads from 20 concurrent clients are counted exactly per calculator and origin, across SIGTERM and a restart', async () => {
  using dir = tempDir();
  const data = join(dir.path, 'data');
  const created = await runCommand(
    [calc],
    [
      'admin',
      'accounts',
      'create',
      '--email',
      'owner@shop.example',
      '--plan',
      'base',
      '--password-stdin',
      '--json',
      '--data',
      data,
    ],
    { stdin: `${PASSWORD}\n` },
  );
  expect(created.exitCode).toBe(0);
  const apiKey = (JSON.parse(created.stdout) as { account: { apiKey: string } }).account.apiKey;

  let server = await startServe([calc], ['--data', data, ...SERVE_ARGS]);
  try {
    const auth = await signIn(server.url);
    const added = await fetch(`${server.url}/v1/domains`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: JSON.stringify({ domain: 'https://*.shop.example' }),
    });
    expect(added.status).toBe(201);
    await fetch(`${server.url}/v1/domains`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: JSON.stringify({ domain: 'https://shop.example' }),
    });

    // Load i goes to calculator i mod 4 and origin i mod 5: 20 rows, 250 loads each.
    const expected = new Map<string, number>();
    let next = 0;
    let refused = 0;
    const client = async () => {
      for (let i = next++; i < LOADS; i = next++) {
        const calcId = CALCULATORS[i % CALCULATORS.length] as string;
        const domain = ORIGINS[i % ORIGINS.length] as string;
        const response = await fetch(`${server.url}/v1/widget/load`, {
          method: 'POST',
          headers: { 'content-type': 'text/plain', origin: domain },
          body: JSON.stringify({ apiKey, domain, calcId }),
        });
        await response.arrayBuffer();
        if (response.status !== 200) refused += 1;
        const key = `${calcId} ${domain}`;
        expected.set(key, (expected.get(key) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, client));
    expect(refused).toBe(0);

    const rowsOf = (body: Awaited<ReturnType<typeof usageOf>>) =>
      new Map(body.rows.map((row) => [`${row.calcId} ${row.domain}`, row.loads]));
    // Right away: some counts are not yet on disk, and the answer includes them.
    const live = await usageOf(server.url, auth);
    expect(live.total).toBe(LOADS);
    expect(live.period.used).toBe(LOADS);
    expect(rowsOf(live)).toEqual(expected);
    expect(live.rows.length).toBe(CALCULATORS.length * ORIGINS.length);

    const stopped = await server.stop();
    expect(stopped.exitCode).toBe(0);

    server = await startServe([calc], ['--data', data, ...SERVE_ARGS]);
    const again = await usageOf(server.url, await signIn(server.url));
    expect(again.total).toBe(LOADS);
    expect(again.period.used).toBe(LOADS);
    expect(rowsOf(again)).toEqual(expected);
  } finally {
    await server[Symbol.asyncDispose]();
  }
}, 120_000);
