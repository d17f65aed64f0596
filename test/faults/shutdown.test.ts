import { beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import {
  acceptedByServer,
  logLines,
  partialLoad,
  rawConnection,
  serveDemo,
  storedLoads,
  widgetLoad,
} from '../helpers/faults.ts';
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

  test('idle connections beside slow uploads: on SIGTERM 100 idle connections see their end at once while slow uploads keep the deadline; nothing new is started; the cut uploads are logged 408, not 499; exit 0 within the deadline and a second', async () => {
    using dir = tempDir();
    const data = join(dir.path, 'data');
    const deadlineMs = 3000;
    const { server, apiKey, origin } = await serveDemo(calc, data, [], {
      CALC_SHUTDOWN_TIMEOUT: String(deadlineMs / 1000),
    });
    await using _ = server;
    const host = new URL(server.url).host;
    const port = Number(new URL(server.url).port);
    const loads = 10;
    for (let i = 0; i < loads; i++) expect(await widgetLoad(server.url, apiKey ?? '', origin ?? '')).toBe(200);

    // Idle: kept alive after an answer, part of a request head, nothing at all.
    const keptAlive = await Promise.all(
      Array.from({ length: 40 }, async () => {
        const connection = await rawConnection(server.url);
        await connection.write(`GET /healthz HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
        await connection.answered('"status":"ok"');
        return connection;
      }),
    );
    const partHead = await Promise.all(
      Array.from({ length: 30 }, async () => {
        const connection = await rawConnection(server.url);
        await connection.write(`POST /v1/widget/load HTTP/1.1\r\nHost: ${host}\r\n`);
        return connection;
      }),
    );
    const silent = await Promise.all(Array.from({ length: 30 }, () => rawConnection(server.url)));
    while (!silent.every((connection) => acceptedByServer(port, connection.localPort))) await Bun.sleep(20);
    // Uploads in progress (the server asked for their bodies): two drip, one completes during the drain.
    const body = JSON.stringify({ apiKey, domain: origin, calcId: 'bmi' });
    const dripping = await Promise.all([rawConnection(server.url), rawConnection(server.url)]);
    for (const upload of dripping) await upload.write(partialLoad(host, body.slice(0, 5), body.length + 1000));
    const finishing = await rawConnection(server.url);
    await finishing.write(partialLoad(host, body.slice(0, 5), body.length));
    await Promise.all([...dripping, finishing].map((upload) => upload.answered('100 Continue')));

    const idle = [...keptAlive, ...partHead, ...silent];
    const signalled = performance.now();
    server.proc.kill('SIGTERM');
    const ended = await Promise.all(
      idle.map(async (connection) => {
        await connection.closed;
        return performance.now() - signalled;
      }),
    );
    console.log(`idle connections ended ${Math.round(Math.max(...ended))} ms after SIGTERM`);
    expect(Math.max(...ended)).toBeLessThan(1500);
    expect(partHead.every((connection) => connection.received() === '')).toBe(true);
    expect(silent.every((connection) => connection.received() === '')).toBe(true);
    // Nothing new is started: a new connection is refused, and a request sent behind the
    // finishing upload's body is not answered.
    expect(
      await fetch(`${server.url}/healthz`).then(
        () => 'answered',
        () => 'refused',
      ),
    ).toBe('refused');
    await finishing.write(`${body.slice(5)}GET /healthz HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
    await finishing.answered('HTTP/1.1 200');
    for (const upload of dripping) await upload.write(body.slice(5, 10));

    const exitCode = await server.proc.exited;
    const exited = performance.now() - signalled;
    console.log(`exited ${Math.round(exited)} ms after SIGTERM (deadline ${deadlineMs} ms)`);
    expect(exitCode).toBe(0);
    expect(exited).toBeGreaterThanOrEqual(deadlineMs);
    expect(exited).toBeLessThan(deadlineMs + 1000);
    await finishing.closed;
    expect(finishing.received()).not.toContain('"status":"ok"');
    for (const upload of dripping) expect(upload.received()).not.toContain('HTTP/1.1 200');

    const lines = logLines((await server.stop()).stderr);
    const uploads = lines.filter((line) => line.msg === 'request' && line.path === '/v1/widget/load');
    expect(uploads.filter((line) => line.status === 408)).toHaveLength(dripping.length);
    expect(lines.filter((line) => line.status === 499)).toEqual([]);
    expect(lines.some((line) => String(line.msg).startsWith('shutdown: closed'))).toBe(true);
    expect(storedLoads(data)).toBe(loads + 1);
  }, 30_000);
});
