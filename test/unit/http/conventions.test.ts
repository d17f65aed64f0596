import { describe, expect, test } from 'bun:test';
import { Elysia, type Static, t } from 'elysia';
import { elysiaGroup, httpConventions } from '../../../src/http/conventions.ts';
import { conventionsFixture } from './groups-fixture.ts';

const AnswerSchema = t.Object({ token: t.String(), count: t.Number() });
type Answer = Static<typeof AnswerSchema>;

function setup() {
  const fixture = conventionsFixture();
  const echo = (prefix: string) =>
    new Elysia()
      .get(`/${prefix}/item/:id`, ({ params }) => ({ id: params.id }))
      .post(`/${prefix}/echo`, ({ body }) => body, {
        body: t.Object({ name: t.String() }, { additionalProperties: true }),
      })
      .get(`/${prefix}/boom`, () => {
        throw new Error('secret detail');
      })
      .get(`/${prefix}/bad-answer`, () => ({ token: 'tok-5ecret-answer', count: 'many' }) as unknown as Answer, {
        response: { 200: AnswerSchema },
      });
  const app = new Elysia()
    .use(httpConventions(fixture))
    .use(elysiaGroup(fixture.open, [echo('open')]))
    .use(elysiaGroup(fixture.closed, [echo('closed')]));
  const call = (method: string, path: string, body?: string, headers: Record<string, string> = {}) =>
    app.handle(
      new Request(`http://calc.test${path}`, {
        method,
        body,
        headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      }),
    );
  return { ...fixture, app, call };
}

describe('Elysia route groups', () => {
  test('every answer has a request id and one access-log line with it', async () => {
    const { call, loggedRequests } = setup();
    const answers = [
      await call('GET', '/open/item/7'),
      await call('GET', '/closed/item/7', undefined, { 'x-request-id': 'proxy-id-0001' }),
      await call('GET', '/nowhere'),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 404]);
    const ids = answers.map((a) => a.headers.get('x-request-id'));
    expect(ids[1]).toBe('proxy-id-0001');
    expect((await loggedRequests(3)).map((line) => [line.requestId, line.status])).toEqual([
      [ids[0], 200],
      [ids[1], 200],
      [ids[2], 404],
    ]);
  });

  test('no request stays in progress once its line is written, whatever its answer', async () => {
    const { call, loggedRequests, accessLog } = setup();
    const answers = await Promise.all([
      call('GET', '/open/item/7'),
      call('POST', '/open/echo', '{broken'),
      call('POST', '/closed/echo', 'x', { 'content-length': String(65 * 1024) }),
      call('GET', '/open/boom'),
      call('GET', '/closed/bad-answer'),
      call('OPTIONS', '/open/echo'),
      call('GET', '/nowhere'),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 400, 413, 500, 500, 204, 404]);
    await loggedRequests(answers.length);
    expect([...accessLog.inProgress()]).toEqual([]);
  });

  test("CORS follows the group's declaration, on errors too; unknown paths get none", async () => {
    const { call } = setup();
    const cors = async (answer: Promise<Response>) => (await answer).headers.get('access-control-allow-origin');
    expect(await cors(call('GET', '/open/item/7'))).toBe('*');
    expect(await cors(call('POST', '/open/echo', '{broken'))).toBe('*');
    expect(await cors(call('POST', '/open/echo', '{"nom":"x"}'))).toBe('*');
    // A body over the cap is refused like any other error: the page can read why.
    const tooLarge = await call('POST', '/open/echo', 'x', { 'content-length': String(65 * 1024) });
    expect([tooLarge.status, tooLarge.headers.get('access-control-allow-origin')]).toEqual([413, '*']);
    expect(await cors(call('GET', '/closed/item/7'))).toBeNull();
    expect(await cors(call('POST', '/closed/echo', '{broken'))).toBeNull();
    expect(await cors(call('GET', '/nowhere'))).toBeNull();
    // No route, no body read: the 404 comes whatever size is declared.
    const nowhere = await call('POST', '/nowhere', 'x', { 'content-length': String(100 * 1024 * 1024) });
    expect([nowhere.status, nowhere.headers.get('access-control-allow-origin')]).toEqual([404, null]);
  });

  test('preflights are answered on any-origin paths only', async () => {
    const { call, loggedRequests } = setup();
    const open = await call('OPTIONS', '/open/echo');
    expect(open.status).toBe(204);
    expect(open.headers.get('access-control-allow-methods')).toBe('GET, POST, OPTIONS');
    expect(open.headers.get('x-request-id')).toBeTruthy();
    expect((await loggedRequests(1)).at(-1)).toMatchObject({ method: 'OPTIONS', status: 204 });
    expect((await call('OPTIONS', '/closed/echo')).status).toBe(404);
  });

  test("body rules are the group's: text/plain only where declared", async () => {
    const { call } = setup();
    const plain = { 'content-type': 'text/plain' };
    expect((await call('POST', '/open/echo', '{"name":"a"}', plain)).status).toBe(200);
    const refused = await call('POST', '/closed/echo', '{"name":"a"}', plain);
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.code).toBe('invalid_request');
  });

  test('failures answer the one envelope; a crash is a 500 without its details', async () => {
    const { call } = setup();
    const bad = await call('POST', '/closed/echo', '{"name":1}');
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatchObject({ code: 'invalid_request', message: 'name: Expected string.' });
    const big = await call('POST', '/closed/echo', 'x', { 'content-length': String(65 * 1024) });
    expect(big.status).toBe(413);
    expect((await big.json()).error.code).toBe('payload_too_large');
    const boom = await call('GET', '/closed/boom');
    expect(boom.status).toBe(500);
    const text = await boom.text();
    expect(JSON.parse(text).error.code).toBe('internal');
    expect(text).not.toContain('secret detail');
  });

  test('an answer that fails its own schema is a 500 whose log names where, never the answer', async () => {
    const { call, lines } = setup();
    const bad = await call('GET', '/closed/bad-answer');
    expect(bad.status).toBe(500);
    const text = await bad.text();
    expect(JSON.parse(text).error.code).toBe('internal');
    const logged = lines.map((line) => JSON.parse(line)).find((line) => line.msg === 'unhandled error');
    expect(logged.error).toContain('/count');
    expect(text + lines.join('\n')).not.toContain('tok-5ecret-answer');
  });

  test("a group's concerns run before the handler and can refuse with headers", async () => {
    const { call } = setup();
    const refused = await call('POST', '/open/echo', '{"name":"a","refuse":"yes"}');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('7');
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    expect((await refused.json()).error.code).toBe('rate_limited');
    expect((await call('POST', '/closed/echo', '{"name":"a","refuse":"yes"}')).status).toBe(200);
  });
});
