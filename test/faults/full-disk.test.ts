import { beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { logLines, serveDemo, smallDisk, storedLoads, widgetLoad } from '../helpers/faults.ts';
import { ensureCompiled } from '../helpers/process.ts';
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
