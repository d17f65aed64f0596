import { beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { logLines, partialLoad, rawConnection, serveDemo, storedLoads, widgetLoad } from '../helpers/faults.ts';
import { ensureCompiled } from '../helpers/process.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { HOOK_TIMEOUT_MS } from '../helpers/timeouts.ts';

let calc: string;
beforeAll(async () => {
  calc = await ensureCompiled();
}, HOOK_TIMEOUT_MS);

describe('shutdown deadline', () => {
  // The deadline here is far beyond the test's own timeout: only connections that do not
  // hold the exit let this test pass.
  test('failure 1 (one client stalls shutdown): connections without a request in progress do not hold the exit', async () => {
    using dir = tempDir();
    const data = join(dir.path, 'data');
    const { server, apiKey, origin } = await serveDemo(calc, data, [], { CALC_SHUTDOWN_TIMEOUT: '60' });
    await using _ = server;
    const host = new URL(server.url).host;
    const silent = await rawConnection(server.url);
    const keptAlive = await rawConnection(server.url);
    await keptAlive.write(`GET /healthz HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
    await keptAlive.answered('"status":"ok"');
    const halfHeaders = await rawConnection(server.url);
    await halfHeaders.write(`POST /v1/widget/load HTTP/1.1\r\nHost: ${host}\r\n`);
    const loads = 12;
    for (let i = 0; i < loads; i++) expect(await widgetLoad(server.url, apiKey ?? '', origin ?? '')).toBe(200);

    const stopped = await server.stop();
    expect(stopped.exitCode).toBe(0);
    await Promise.all([keptAlive.closed, halfHeaders.closed]);
    // The kernel never handed the silent connection to the server (it waits for data):
    // whatever it sends now meets a closed port.
    await silent.write(`GET /healthz HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
    await silent.closed;
    expect(silent.received()).toBe('');
    expect(storedLoads(data)).toBe(loads);
  }, 20_000);

  test('failure 1 (one client stalls shutdown): a client dripping its body is cut at CALC_SHUTDOWN_TIMEOUT, a request that completes in time is answered, counts are exact', async () => {
    using dir = tempDir();
    const data = join(dir.path, 'data');
    const { server, apiKey, origin } = await serveDemo(calc, data, [], { CALC_SHUTDOWN_TIMEOUT: '1' });
    await using _ = server;
    const host = new URL(server.url).host;
    const loads = 20;
    for (let i = 0; i < loads; i++) expect(await widgetLoad(server.url, apiKey ?? '', origin ?? '')).toBe(200);
    const body = JSON.stringify({ apiKey, domain: origin, calcId: 'bmi' });
    const dripping = await rawConnection(server.url);
    await dripping.write(partialLoad(host, body.slice(0, 5), body.length + 1000));
    const finishing = await rawConnection(server.url);
    await finishing.write(partialLoad(host, body.slice(0, 5), body.length));
    await Promise.all([dripping.answered('100 Continue'), finishing.answered('100 Continue')]);

    server.proc.kill('SIGTERM');
    await finishing.write(body.slice(5));
    await finishing.answered('HTTP/1.1 200');
    await dripping.write(body.slice(5, 10));
    const exitCode = await server.proc.exited;
    expect(exitCode).toBe(0);
    await dripping.closed;
    expect(dripping.received()).not.toContain('HTTP/1.1 200');
    const { stderr } = await server.stop();
    expect(logLines(stderr).some((line) => String(line.msg).startsWith('shutdown deadline reached'))).toBe(true);
    expect(storedLoads(data)).toBe(loads + 1);
  }, 20_000);
});
