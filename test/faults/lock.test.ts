import { beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { serveDemo, storedLoads, widgetLoad } from '../helpers/faults.ts';
import { ensureCompiled, runCommand } from '../helpers/process.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { HOOK_TIMEOUT_MS } from '../helpers/timeouts.ts';

let calc: string;
beforeAll(async () => {
  calc = await ensureCompiled();
}, HOOK_TIMEOUT_MS);

describe('one server per data directory', () => {
  test('failure 2 (two servers on one data directory): a second serve exits 1 naming the holder, operator commands still work', async () => {
    using dir = tempDir();
    const data = join(dir.path, 'data');
    const { server, apiKey, origin } = await serveDemo(calc, data);
    await using _ = server;
    const second = await runCommand([calc], ['serve', '--port', '0', '--data', data]);
    expect(second.exitCode).toBe(1);
    expect(second.stderr).toContain(`The data directory ${data} is in use by calc serve (pid ${server.proc.pid}`);
    expect(second.stderr).not.toContain('    at ');

    const list = await runCommand([calc], ['admin', 'accounts', 'list', '--json', '--data', data]);
    expect(list.exitCode).toBe(0);
    expect(list.stdout).toContain('demo@calc.example');
    // The first server still serves and counts alone.
    expect(await widgetLoad(server.url, apiKey ?? '', origin ?? '')).toBe(200);
    expect((await server.stop()).exitCode).toBe(0);
    expect(storedLoads(data)).toBe(1);
  }, 30_000);

  test('failure 2 (two servers on one port): a second serve on a taken port exits 1 saying the port is in use', async () => {
    using dir = tempDir();
    const { server } = await serveDemo(calc, join(dir.path, 'a'));
    await using _ = server;
    const port = new URL(server.url).port;
    const second = await runCommand([calc], ['serve', '--port', port, '--data', join(dir.path, 'b')]);
    expect(second.exitCode).toBe(1);
    expect(second.stderr).toContain(`Port ${port} on 127.0.0.1 is in use`);
    expect(second.stderr).not.toContain('    at ');
    // Same data directory and same port: the lock answers first.
    const third = await runCommand([calc], ['serve', '--port', port, '--data', join(dir.path, 'a')]);
    expect(third.exitCode).toBe(1);
    expect(third.stderr).toContain('is in use by calc serve');
  }, 30_000);

  test('failure 2 and 6 (kill -9): the lock dies with the process, and the load that reached the quota is on disk before it was answered', async () => {
    using dir = tempDir();
    const data = join(dir.path, 'data');
    const limit = 5;
    const first = await serveDemo(calc, data, ['--quota-extra', String(limit)]);
    const apiKey = first.apiKey ?? '';
    const origin = first.origin ?? '';
    for (let i = 0; i < limit; i++) expect(await widgetLoad(first.server.url, apiKey, origin)).toBe(200);
    first.server.proc.kill('SIGKILL');
    await first.server.proc.exited;

    expect(storedLoads(data)).toBe(limit);
    const again = await serveDemo(calc, data, ['--quota-extra', String(limit)]);
    await using _ = again.server;
    expect(await widgetLoad(again.server.url, apiKey, origin)).toBe(429);
  }, 30_000);
});
