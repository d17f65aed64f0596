import { describe, expect, test } from 'bun:test';
import { createAccessLog } from '../../../src/http/access-log.ts';
import { createLogger } from '../../../src/logger.ts';

function capture() {
  const lines: string[] = [];
  const accessLog = createAccessLog(createLogger((line) => lines.push(line)));
  return { accessLog, parsed: () => lines.map((line) => JSON.parse(line)) };
}

describe('access log', () => {
  test('one line per request: method, path without the query, status, time and id; nothing else', () => {
    const { accessLog, parsed } = capture();
    const request = new Request('http://calc.test/v1/domains?token=secret', {
      method: 'POST',
      headers: { 'x-request-id': 'proxy-id-0001', authorization: 'Bearer secret' },
      body: '{"password":"secret"}',
    });
    expect(accessLog.start(request)).toBe('proxy-id-0001');
    expect(accessLog.idOf(request)).toBe('proxy-id-0001');
    accessLog.markDone(request);
    accessLog.finish(request, 201);
    const [line] = parsed();
    expect(Object.keys(line).sort()).toEqual(['level', 'method', 'ms', 'msg', 'path', 'requestId', 'status', 'time']);
    expect(line).toMatchObject({ msg: 'request', method: 'POST', path: '/v1/domains', status: 201 });
    expect(line.ms).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(parsed())).not.toContain('secret');
  });

  test('long paths are cut at 200 characters', () => {
    const { accessLog, parsed } = capture();
    const request = new Request(`http://calc.test/${'a'.repeat(300)}`);
    accessLog.start(request);
    accessLog.finish(request, 404);
    expect(parsed()[0].path).toBe(`/${'a'.repeat(199)}…`);
  });

  test('requests in progress are known until they finish; one the shutdown cut is logged as the server cutting it, never 499', () => {
    const { accessLog, parsed } = capture();
    const request = (path: string) => new Request(`http://calc.test${path}`, { method: 'POST' });
    const [uploading, working, finished, native] = [request('/a'), request('/b'), request('/c'), request('/d')];
    for (const r of [uploading, working, finished]) accessLog.start(r);
    accessLog.begin(native);
    accessLog.finish(finished, 201);
    expect([...accessLog.inProgress()]).toEqual([uploading, working, native]);
    expect(accessLog.cutInProgress()).toBe(3);
    expect([...accessLog.inProgress()]).toEqual([]);
    // Its body read failed as the connection closed: a slow body. Its handler still ran: the deadline.
    accessLog.finish(uploading, 499);
    accessLog.finish(working, 200);
    expect(accessLog.settle(native, 499)).toBe(408);
    expect(parsed().map((line) => [line.path, line.status])).toEqual([
      ['/c', 201],
      ['/a', 408],
      ['/b', 503],
    ]);
    // A client that leaves on its own is still 499.
    const leaving = request('/e');
    accessLog.begin(leaving);
    expect(accessLog.settle(leaving, 499)).toBe(499);
  });

  test('a fixed route writer writes the same line shape', () => {
    const { accessLog, parsed } = capture();
    accessLog.routeWriter('POST', '/v1/widget/load')('id-12345678', 429, 0.25);
    expect(parsed()[0]).toMatchObject({ path: '/v1/widget/load', status: 429, ms: 0.25, requestId: 'id-12345678' });
  });
});
