/**
 * Exporting 100,000 results from a real server process (`bun cli/bin.ts serve` on SQLite):
 * every row arrives once, in order, while the server's memory stays within a bound far
 * below the export's size (it streams keyset pages; it never holds the export).
 */
import { expect, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHOP_ORIGIN } from '../helpers/owners.ts';
import { callJson, startServe, SOURCE_CLI } from '../helpers/process.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const ROWS = 100_000;
/** Each row carries a page address this long: the export is about 200 MB. */
const PAGE_CHARS = 1800;
/**
 * How much the server's resident memory may grow while it streams the export: 60 % of the
 * export's size. Streaming, it plateaus at some 80 MB above the baseline (garbage the
 * collector has not taken back yet), whatever the export's size; holding the export would
 * take more than all of it.
 */
const GROWTH_LIMIT_MB = 120;

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]) / 1024;
}

/** Writes `ROWS` results for the account, as the submit route stores them, in one transaction. */
function seed(data: string, accountId: string): void {
  const database = new Database(join(data, 'calc.db'));
  try {
    database.run('PRAGMA busy_timeout = 5000');
    const insert = database.prepare(
      `INSERT INTO results (id, account_id, calc_id, domain, created_at, units, inputs, outputs, contact_email, page)
       VALUES (?, ?, 'bmi', ?, ?, 'metric', ?, ?, ?, ?)`,
    );
    const start = Date.parse('2026-01-01T00:00:00.000Z');
    database.transaction(() => {
      for (let n = 0; n < ROWS; n++) {
        const weight = 50 + (n % 100);
        insert.run(
          `res_${String(n).padStart(20, '0')}`,
          accountId,
          SHOP_ORIGIN,
          new Date(start + n * 1000).toISOString(),
          JSON.stringify({ weightKg: weight, heightCm: 180 }),
          JSON.stringify({ bmi: weight / 3.24 }),
          `visitor${n}@example.net`,
          `${SHOP_ORIGIN}/health?utm_source=newsletter&ref=${'x'.repeat(PAGE_CHARS)}`,
        );
      }
    })();
  } finally {
    database.close();
  }
}

/** Reads a streamed body without keeping it: counts lines, checks each row's id is the next expected one. */
async function consume(response: Response, pid: number, idOf: (line: string) => string) {
  const reader = response.body?.getReader();
  if (!reader) throw new Error('no body');
  const decoder = new TextDecoder();
  let rest = '';
  let lines = 0;
  let bytes = 0;
  let peak = rssMb(pid);
  let next = ROWS - 1;
  let outOfOrder = 0;
  let head: number[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (bytes === 0) head = [...value.subarray(0, 3)];
    bytes += value.byteLength;
    rest += decoder.decode(value, { stream: true });
    const parts = rest.split('\n');
    rest = parts.pop() ?? '';
    for (const raw of parts) {
      const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      lines++;
      // The CSV's header (the decoder took its byte order mark).
      if (lines === 1 && line.startsWith('id,')) continue;
      if (idOf(line) !== `res_${String(next).padStart(20, '0')}`) outOfOrder++;
      next--;
    }
    peak = Math.max(peak, rssMb(pid));
  }
  return { lines, bytes, peak, outOfOrder, rest, head };
}

test('100,000 results export as CSV and as JSON lines with the server’s memory bounded', async () => {
  using dir = tempDir();
  const data = join(dir.path, 'data');
  const server = await startServe(SOURCE_CLI, ['--data', data]);
  try {
    const signup = await callJson(server.url, 'POST', '/v1/auth/signup', {
      email: 'owner@shop.example',
      password: 'correct horse battery',
    });
    const token: string = signup.json.token;
    seed(data, signup.json.account.id);
    const pid = server.proc.pid;
    const get = (format: string) =>
      fetch(`${server.url}/v1/results/export?format=${format}`, { headers: { authorization: `Bearer ${token}` } });

    // A first small request warms the route; the baseline is taken after it.
    expect((await callJson(server.url, 'GET', '/v1/results?limit=1', undefined, token)).status).toBe(200);
    const baseline = rssMb(pid);

    let started = performance.now();
    const csv = await consume(await get('csv'), pid, (line) => line.slice(0, line.indexOf(',')));
    expect(csv.rest).toBe('');
    // UTF-8's byte order mark first, so that spreadsheets read it as UTF-8.
    expect(csv.head).toEqual([0xef, 0xbb, 0xbf]);
    expect(csv.lines).toBe(ROWS + 1);
    expect(csv.outOfOrder).toBe(0);
    expect(csv.bytes).toBeGreaterThan(ROWS * PAGE_CHARS);
    expect(csv.peak - baseline).toBeLessThan(GROWTH_LIMIT_MB);

    const csvSeconds = (performance.now() - started) / 1000;
    started = performance.now();
    const jsonl = await consume(await get('jsonl'), pid, (line) => JSON.parse(line).id);
    expect(jsonl.lines).toBe(ROWS);
    expect(jsonl.outOfOrder).toBe(0);
    expect(jsonl.peak - baseline).toBeLessThan(GROWTH_LIMIT_MB);
    console.log(
      `export of ${ROWS} results: CSV ${(csv.bytes / 1e6).toFixed(0)} MB in ${csvSeconds.toFixed(1)} s, JSON lines ${(jsonl.bytes / 1e6).toFixed(0)} MB in ${((performance.now() - started) / 1000).toFixed(1)} s; server RSS ${baseline.toFixed(0)} MB before, peak ${Math.max(csv.peak, jsonl.peak).toFixed(0)} MB`,
    );
  } finally {
    expect((await server.stop()).exitCode).toBe(0);
  }
}, 180_000);
