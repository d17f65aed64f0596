import { beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { logLines, partialLoad, rawConnection, serveDemo } from '../helpers/faults.ts';
import { ensureCompiled } from '../helpers/process.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { HOOK_TIMEOUT_MS } from '../helpers/timeouts.ts';

let calc: string;
beforeAll(async () => {
  calc = await ensureCompiled();
}, HOOK_TIMEOUT_MS);

describe('disconnects', () => {
  test('failure 6 (a disconnect logged as a 500): a client that leaves mid-body is logged with status 499, no error line', async () => {
    using dir = tempDir();
    const { server } = await serveDemo(calc, join(dir.path, 'data'));
    await using _ = server;
    const host = new URL(server.url).host;
    const paths = ['/v1/widget/load', '/v1/auth/login'];
    for (const path of paths) {
      const client = await rawConnection(server.url);
      await client.write(partialLoad(host, '{"apiKey":', 200).replace('/v1/widget/load', path));
      client.destroy();
      await client.closed;
    }
    // A complete request afterwards: its answer shows the server has handled the ones before.
    const after = await rawConnection(server.url);
    await after.write(`GET /healthz HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
    await after.closed;

    const lines = logLines((await server.stop()).stderr);
    for (const path of paths) {
      expect(lines.filter((line) => line.path === path).map((line) => line.status)).toEqual([499]);
    }
    expect(lines.filter((line) => line.level === 'error')).toEqual([]);
  }, 30_000);
});
