import { Database } from 'bun:sqlite';
import { beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { logLines, serveDemo, smallDisk, storedLoads, widgetLoad } from '../helpers/faults.ts';
import { callJson, ensureCompiled } from '../helpers/process.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { HOOK_TIMEOUT_MS } from '../helpers/timeouts.ts';

let calc: string;
beforeAll(async () => {
  calc = await ensureCompiled();
}, HOOK_TIMEOUT_MS);

const readyz = async (url: string) => {
  const response = await fetch(`${url}/readyz`);
  return { status: response.status, body: (await response.json()) as { error?: { code: string } } };
};

describe('a full disk', () => {
  test('failure 3 (a flush that fails at shutdown): on a full disk serve exits 1, saves usage-pending.json, and the next start adds the counts', async () => {
    using dir = tempDir();
    using disk = smallDisk(dir.path);
    const data = join(disk.path, 'data');
    const first = await serveDemo(calc, data, [], { CALC_SHUTDOWN_TIMEOUT: '1' });
    const apiKey = first.apiKey ?? '';
    const origin = first.origin ?? '';
    const before = 15;
    for (let i = 0; i < before; i++) expect(await widgetLoad(first.server.url, apiKey, origin)).toBe(200);
    disk.fill();
    // Counted in memory: no flush can write these any more.
    const after = 25;
    for (let i = 0; i < after; i++) expect(await widgetLoad(first.server.url, apiKey, origin)).toBe(200);

    const stopped = await first.server.stop();
    expect(stopped.exitCode).toBe(1);
    const pendingFile = join(data, 'usage-pending.json');
    expect(stopped.stderr).toContain(`saved to ${pendingFile}`);
    expect(
      logLines(stopped.stderr).some(
        (line) => line.msg === 'flush at shutdown failed; retrying until the shutdown deadline',
      ),
    ).toBe(true);
    const saved = JSON.parse(readFileSync(pendingFile, 'utf8')) as { deltas: { monthly: { loads: number }[] } };
    const savedLoads = saved.deltas.monthly.reduce((sum, row) => sum + row.loads, 0);
    expect(savedLoads).toBeGreaterThanOrEqual(after);
    expect(storedLoads(data) + savedLoads).toBe(before + after);

    disk.free();
    const second = await serveDemo(calc, data);
    await using _ = second.server;
    expect(existsSync(pendingFile)).toBe(false);
    expect(storedLoads(data)).toBe(before + after);
    expect(storedLoads(data, 'usage_daily')).toBe(before + after);
    expect(
      logLines((await second.server.stop()).stderr).some((line) =>
        String(line.msg).startsWith(`added ${savedLoads} widget loads`),
      ),
    ).toBe(true);
  }, 30_000);

  test('failure 6 (/readyz on a full disk): /readyz answers 503 not_ready while the database cannot be written, ready again once it can', async () => {
    using dir = tempDir();
    using disk = smallDisk(dir.path);
    const { server } = await serveDemo(calc, join(disk.path, 'data'));
    await using _ = server;
    disk.fill();
    const full = await readyz(server.url);
    expect(full.status).toBe(503);
    expect(full.body.error?.code).toBe('not_ready');
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);

    disk.free();
    // The write probe runs at most every 5 s: wait for the next one.
    let status = full.status;
    while (status !== 200) {
      await Bun.sleep(250);
      status = (await readyz(server.url)).status;
    }
    expect(status).toBe(200);
  }, 30_000);
});

describe('owner writes on a full disk', () => {
  test('domains, sign-up and key rotation answer 503 storage_full with Retry-After, save nothing, name the cause in the log once a second, and succeed once space is back', async () => {
    using dir = tempDir();
    using disk = smallDisk(dir.path);
    const data = join(disk.path, 'data');
    const { server, apiKey, origin } = await serveDemo(calc, data);
    await using _ = server;
    const owner = await callJson(server.url, 'POST', '/v1/auth/signup', {
      email: 'owner@shop.example',
      password: 'correct horse battery',
    });
    expect(owner.status).toBe(201);
    const token: string = owner.json.token;
    const oldKey: string = owner.json.account.apiKey;
    const writes = [
      () => callJson(server.url, 'POST', '/v1/domains', { domain: 'https://new.shop.example' }, token),
      () =>
        callJson(server.url, 'POST', '/v1/auth/signup', {
          email: 'second@shop.example',
          password: 'correct horse battery',
        }),
      () => callJson(server.url, 'POST', '/v1/account/rotate-api-key', undefined, token),
    ];

    disk.fill();
    for (const write of writes) {
      const refused = await write();
      expect(refused.status).toBe(503);
      expect(refused.json.error.code).toBe('storage_full');
      expect(refused.headers.get('retry-after')).toBe('30');
    }
    // Reads still work, and show nothing of the refused writes; loads are counted in memory.
    const domains = await callJson(server.url, 'GET', '/v1/domains', undefined, token);
    expect(domains.status).toBe(200);
    expect(JSON.stringify(domains.json)).not.toContain('new.shop.example');
    expect((await callJson(server.url, 'GET', '/v1/account', undefined, token)).json.account.apiKey).toBe(oldKey);
    expect(await widgetLoad(server.url, apiKey ?? '', origin ?? '')).toBe(200);

    disk.free();
    const [domain, second, rotated] = await Promise.all(writes.map((write) => write()));
    expect([domain?.status, second?.status, rotated?.status]).toEqual([201, 201, 200]);
    expect(rotated?.json.account.apiKey).not.toBe(oldKey);

    const lines = logLines((await server.stop()).stderr);
    const errors = lines.filter((line) => line.level === 'error');
    expect(errors.length).toBeGreaterThan(0);
    for (const line of errors) {
      expect(line.msg).toBe('database fault: answered 503 storage_full');
      expect(line.cause).toBe('SQLiteError SQLITE_FULL: database or disk is full');
    }
    // At most one line per cause a second.
    const times = errors.map((line) => Date.parse(String(line.time)));
    for (let i = 1; i < times.length; i++) expect((times[i] ?? 0) - (times[i - 1] ?? 0)).toBeGreaterThanOrEqual(1000);
    expect(lines.filter((line) => line.msg === 'request' && line.status === 500)).toEqual([]);
    // Nothing half-written: each account once, each with its signing secret; the domain once.
    const db = new Database(join(data, 'calc.db'), { readonly: true });
    try {
      const count = (query: string) => (db.query(query).get() as { n: number }).n;
      expect(count("SELECT count(*) AS n FROM accounts WHERE email = 'second@shop.example'")).toBe(1);
      expect(
        count(
          'SELECT count(*) AS n FROM accounts a LEFT JOIN signing_secrets s ON s.account_id = a.id WHERE s.account_id IS NULL',
        ),
      ).toBe(0);
      expect(count("SELECT count(*) AS n FROM domains WHERE origin = 'https://new.shop.example'")).toBe(1);
    } finally {
      db.close();
    }
  }, 30_000);
});
