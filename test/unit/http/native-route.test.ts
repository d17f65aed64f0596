import { describe, expect, test } from 'bun:test';
import { t } from 'elysia';
import { DatabaseTimeout } from '../../../src/db/faults.ts';
import { type NativeRoute, nativeRoutes } from '../../../src/http/native-route.ts';
import { conventionsFixture } from './groups-fixture.ts';

const Body = t.Object({ name: t.String() });

function setup(groupName: 'open' | 'closed') {
  const fixture = conventionsFixture();
  const echo: NativeRoute<typeof Body> = {
    path: '/echo',
    body: Body,
    response: {},
    detail: { summary: 'Echo' },
    answer: (body) => {
      if (body.name === 'boom') throw new Error('secret detail');
      if (body.name === 'hung') throw new DatabaseTimeout('PostgreSQL did not answer within 1500 ms');
      return JSON.stringify({ name: body.name });
    },
  };
  const native = nativeRoutes([echo as NativeRoute], fixture[groupName], fixture);
  const call = async (method: string, body?: string, headers: Record<string, string> = {}) => {
    const request = new Request('http://calc.test/echo', {
      method,
      body,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    });
    const handler = native.match(request);
    if (!handler) return undefined;
    return handler(request);
  };
  return { ...fixture, native, call };
}

describe('native routes', () => {
  test('an answer carries the request id, the JSON type, the CORS of its group, and one log line', async () => {
    const { call, requests } = setup('open');
    const answer = await call('POST', '{"name":"a"}', { 'x-request-id': 'proxy-id-0001' });
    expect(answer?.status).toBe(200);
    expect(await answer?.json()).toEqual({ name: 'a' });
    expect(answer?.headers.get('x-request-id')).toBe('proxy-id-0001');
    expect(answer?.headers.get('content-type')).toBe('application/json');
    expect(answer?.headers.get('access-control-allow-origin')).toBe('*');
    expect(requests()).toMatchObject([{ method: 'POST', path: '/echo', status: 200, requestId: 'proxy-id-0001' }]);
  });

  test('answers made one after the other each keep their own request id', async () => {
    const { call } = setup('open');
    const first = await call('POST', '{"name":"a"}', { 'x-request-id': 'proxy-id-0001' });
    const second = await call('POST', '{"name":"b"}', { 'x-request-id': 'proxy-id-0002' });
    const generated = await call('POST', '{"name":"c"}');
    expect(first?.headers.get('x-request-id')).toBe('proxy-id-0001');
    expect(second?.headers.get('x-request-id')).toBe('proxy-id-0002');
    expect(generated?.headers.get('x-request-id')).toMatch(/^[0-9a-f]{12}-[0-9a-z]+$/);
    expect([...(first?.headers.keys() ?? [])].sort()).toEqual([
      'access-control-allow-origin',
      'content-type',
      'x-request-id',
    ]);
  });

  test('a same-origin group sends no CORS and answers no preflight', async () => {
    const { call, native } = setup('closed');
    expect((await call('POST', '{"name":"a"}'))?.headers.get('access-control-allow-origin')).toBeNull();
    expect(await call('OPTIONS')).toBeUndefined();
    expect(native.routes['/echo']?.OPTIONS).toBeUndefined();
  });

  test('an any-origin group answers preflights and logs them', async () => {
    const { call, requests } = setup('open');
    const answer = await call('OPTIONS');
    expect(answer?.status).toBe(204);
    expect(answer?.headers.get('access-control-allow-origin')).toBe('*');
    expect(requests()).toMatchObject([{ method: 'OPTIONS', status: 204 }]);
  });

  test('body rules, schema check, concerns, database faults and crashes answer the one envelope', async () => {
    const { call, requests, accessLog } = setup('open');
    const cases = [
      [await call('POST', '{"name":1}'), 400, 'invalid_request'],
      [await call('POST', '{broken'), 400, 'invalid_request'],
      [await call('POST', '{"name":"a"}', { 'content-type': 'text/html' }), 400, 'invalid_request'],
      [await call('POST', 'x', { 'content-length': String(65 * 1024) }), 413, 'payload_too_large'],
      [await call('POST', '{"name":"a","refuse":"yes"}'), 429, 'rate_limited'],
      [await call('POST', '{"name":"boom"}'), 500, 'internal'],
      [await call('POST', '{"name":"hung"}'), 503, 'not_ready'],
    ] as const;
    for (const [answer, status, code] of cases) {
      expect(answer?.status).toBe(status);
      expect(answer?.headers.get('access-control-allow-origin')).toBe('*');
      const text = (await answer?.text()) ?? '';
      expect(JSON.parse(text).error.code).toBe(code);
      expect(text).not.toContain('secret detail');
    }
    expect(cases[4][0]?.headers.get('retry-after')).toBe('7');
    expect(cases[6][0]?.headers.get('retry-after')).toBe('1');
    expect(requests().map((line) => line.status)).toEqual([400, 400, 400, 413, 429, 500, 503]);
    expect([...accessLog.inProgress()]).toEqual([]);
  });

  test('text/plain is taken where the group allows it', async () => {
    const { call } = setup('open');
    expect((await call('POST', '{"name":"a"}', { 'content-type': 'text/plain' }))?.status).toBe(200);
  });
});
