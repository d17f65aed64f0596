import { describe, expect, test } from 'bun:test';
import { testApp } from '../helpers/test-app.ts';

/** Every route with a body, and how to authorise it. */
const ROUTES: { method: string; path: string; owner: boolean }[] = [
  { method: 'POST', path: '/v1/auth/signup', owner: false },
  { method: 'POST', path: '/v1/auth/login', owner: false },
  { method: 'POST', path: '/v1/domains', owner: true },
  { method: 'DELETE', path: '/v1/domains', owner: true },
  { method: 'POST', path: '/v1/widget/verify', owner: false },
  { method: 'POST', path: '/v1/widget/load', owner: false },
  { method: 'POST', path: '/v1/widget/register-domain', owner: false },
  { method: 'POST', path: '/v1/account/calculators', owner: true },
  { method: 'PUT', path: '/v1/account/calculators/paint-quote', owner: true },
  { method: 'POST', path: '/v1/account/calculators/paint-quote/evaluate', owner: true },
];

const VALID = JSON.stringify({
  apiKey: 'pk_x',
  domain: 'https://shop.example',
  calcId: 'bmi',
  email: 'a@shop.example',
  password: 'long enough pw',
});

// A deterministic generator so a failure can be replayed.
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

function hostileBodies(): string[] {
  const rnd = random(42);
  const unicode = ['\u0000', '\u202e', '\ud83d\ude00', '\ud800', 'Ω', '\uFEFF', 'ℌ', '\u0085', '\\u0000'];
  const bodies = [
    '',
    '{',
    '}',
    '[',
    'null',
    'true',
    '1',
    '"x"',
    '[]',
    '{}',
    '{"a":',
    'NaN',
    '{"apiKey":}',
    JSON.stringify({ apiKey: 'x'.repeat(60_000) }),
    JSON.stringify({ apiKey: null, domain: null, calcId: null, email: null, password: null }),
    JSON.stringify({ apiKey: [], domain: {}, calcId: 1, email: true, password: 1.5 }),
    JSON.stringify({ __proto__: { admin: true }, constructor: { prototype: { admin: true } } }),
    '{"__proto__": {"polluted": 1}, "apiKey": "pk_x", "domain": "https://shop.example", "calcId": "bmi"}',
    JSON.stringify({ apiKey: 'pk_x', domain: `https://${'a'.repeat(250)}.example`, calcId: 'bmi' }),
    JSON.stringify({ apiKey: 'pk_x', domain: 'https://shop.example', calcId: '../../etc/passwd' }),
    '['.repeat(5000) + ']'.repeat(5000),
    `{"apiKey":${'['.repeat(5000)}${']'.repeat(5000)},"domain":"https://shop.example","calcId":"bmi","email":${'['.repeat(3000)}${']'.repeat(3000)}}`,
    `{"domain":${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}}`,
  ];
  for (const u of unicode)
    bodies.push(
      JSON.stringify({
        apiKey: `pk_${u}`,
        domain: `https://${u}.example`,
        calcId: u,
        email: `${u}@x.example`,
        password: u.repeat(12),
      }),
    );
  for (let i = 0; i < 40; i++) bodies.push(VALID.slice(0, Math.floor(rnd() * VALID.length)));
  for (let i = 0; i < 40; i++) {
    const chars = [...VALID];
    for (let j = 0; j < 4; j++)
      chars[Math.floor(rnd() * chars.length)] = String.fromCharCode(Math.floor(rnd() * 0x3000));
    bodies.push(chars.join(''));
  }
  return bodies;
}

describe('hostile input never gets a 500, a stack trace or HTML', () => {
  test.each(ROUTES)('$method $path', async ({ method, path, owner }) => {
    using app = testApp();
    const token = owner ? (await app.signup()).token : undefined;
    for (const body of hostileBodies()) {
      for (const contentType of ['application/json', 'text/plain', 'application/x-www-form-urlencoded']) {
        const res = await app.request(method, path, { body, token, headers: { 'content-type': contentType } });
        const summary = { body: body.slice(0, 80), contentType, status: res.status };
        expect(summary.status < 500 ? summary : { ...summary, text: res.text }).toEqual(summary);
        expect(res.headers.get('content-type') ?? '').toContain('application/json');
        if (res.status >= 400) {
          expect(typeof res.json?.error?.code).toBe('string');
          expect(typeof res.json?.error?.message).toBe('string');
        }
        expect(res.text).not.toMatch(/\bat .*\.(ts|js):\d+|node_modules|<html/i);
      }
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });
});

describe('sizes, routes and request ids', () => {
  test('a body over 64 KiB is 413 payload_too_large before parsing, and nothing is created', async () => {
    using app = testApp();
    const big = JSON.stringify({ email: 'big@shop.example', password: 'x'.repeat(70_000) });
    const res = await app.request('POST', '/v1/auth/signup', {
      body: big,
      headers: { 'content-length': String(big.length) },
    });
    expect(res.status).toBe(413);
    expect(res.json.error.code).toBe('payload_too_large');
    expect(await app.accounts.count()).toBe(0);
  });

  test('a chunked body over 64 KiB (no Content-Length) is also 413', async () => {
    using app = testApp();
    const chunk = new TextEncoder().encode('x'.repeat(16 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 6) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const res = await app.handle(
      new Request('http://calc.test/v1/widget/verify', {
        method: 'POST',
        body: stream,
        headers: { 'content-type': 'application/json' },
      }),
    );
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe('payload_too_large');
  });

  // Over a socket, as browsers send them: bodies with a Content-Length take the one-read path.
  test('a body that is not UTF-8 is 400 invalid_request on widget and owner routes alike', async () => {
    using app = testApp();
    app.app.listen({ hostname: '127.0.0.1', port: 0 });
    try {
      const base = `http://127.0.0.1:${app.app.server?.port}`;
      const bad = new Uint8Array([
        ...new TextEncoder().encode('{"apiKey":"pk_'),
        0xff,
        0xfe,
        ...new TextEncoder().encode('","domain":"https://shop.example","calcId":"bmi"}'),
      ]);
      // U+FFFD itself, validly encoded: never part of a widget body, refused there the same way.
      const replacement = new TextEncoder().encode(
        '{"apiKey":"pk_\uFFFD","domain":"https://shop.example","calcId":"bmi"}',
      );
      for (const [path, body] of [
        ['/v1/widget/load', bad],
        ['/v1/widget/verify', replacement],
        ['/v1/widget/register-domain', bad],
        ['/v1/auth/signup', bad],
      ] as const) {
        const res = await fetch(`${base}${path}`, {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json' },
        });
        expect({ path, status: res.status, body: await res.json() }).toEqual({
          path,
          status: 400,
          body: { error: { code: 'invalid_request', message: 'The request body is not valid UTF-8.' } },
        });
      }
    } finally {
      await app.app.stop(true);
    }
  });

  test('unknown routes and methods are 404 not_found in the envelope', async () => {
    using app = testApp();
    for (const [method, path] of [
      ['GET', '/nope'],
      ['GET', '/v1/widget/load'],
      ['PATCH', '/v1/domains'],
      ['GET', '/v1/../etc/passwd'],
    ] as const) {
      const res = await app.request(method, path);
      expect(res.status).toBe(404);
      expect(res.json.error.code).toBe('not_found');
    }
  });

  test('every answer carries an X-Request-Id; a well-formed incoming one is kept', async () => {
    using app = testApp();
    const generated = await app.request('GET', '/healthz');
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f]{12}-[0-9a-z]+$/);
    // Generated ids never repeat: each correlates one request's log line.
    const ids = new Set<string | null>();
    for (let i = 0; i < 50; i++) ids.add((await app.request('GET', '/healthz')).headers.get('x-request-id'));
    expect(ids.size).toBe(50);
    expect(ids.has(generated.headers.get('x-request-id'))).toBe(false);
    const kept = await app.request('GET', '/nope', { headers: { 'x-request-id': 'proxy-id-12345' } });
    expect(kept.headers.get('x-request-id')).toBe('proxy-id-12345');
    const refused = await app.request('GET', '/healthz', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(refused.headers.get('x-request-id')).not.toBe('bad id with spaces');
  });
});

describe('logs', () => {
  test('one JSON line per request with method, path, status, ms and request id; no secrets', async () => {
    using app = testApp();
    const { token, email, password, apiKey } = await app.signup('logs@shop.example', 'a very secret password');
    await app.request('POST', '/v1/auth/login', { body: { email, password } });
    await app.request('POST', '/v1/auth/login', { body: { email, password: 'wrong but secret' } });
    await app.request('GET', '/v1/account', { token });
    await app.request('POST', '/v1/widget/verify', { body: { apiKey, domain: 'https://shop.example', calcId: 'bmi' } });
    const requests = await app.requestLines(
      (l) => l.path === '/v1/auth/signup',
      (l) => l.path === '/v1/auth/login' && l.status === 200,
      (l) => l.path === '/v1/auth/login' && l.status === 401,
      (l) => l.path === '/v1/account',
      (l) => l.path === '/v1/widget/verify',
    );
    expect(requests.length).toBeGreaterThanOrEqual(5);
    for (const line of requests) {
      expect(Object.keys(line).sort()).toEqual(['level', 'method', 'ms', 'msg', 'path', 'requestId', 'status', 'time']);
    }
    const all = app.logs.join('\n');
    for (const secret of [password, 'wrong but secret', token, apiKey, token.split('.')[2] as string])
      expect(all).not.toContain(secret);
  });
});

describe('health and docs', () => {
  test('/healthz and /readyz answer 200; /readyz is 503 not_ready when the database is gone', async () => {
    using app = testApp();
    expect((await app.request('GET', '/healthz')).json).toEqual({ status: 'ok' });
    expect((await app.request('GET', '/readyz')).json).toEqual({ status: 'ready' });
    app.breakConnection();
    // PostgreSQL's reachability comes from a ping once a second: wait for it to notice.
    const deadline = Date.now() + 5_000;
    let res = await app.request('GET', '/readyz');
    while (res.status === 200 && Date.now() < deadline) {
      await Bun.sleep(20);
      res = await app.request('GET', '/readyz');
    }
    expect(res.status).toBe(503);
    expect(res.json.error.code).toBe('not_ready');
  });

  test('/openapi.json describes every /v1 route with the schemas that validate it; /docs is served from here', async () => {
    using app = testApp();
    const doc = (await app.request('GET', '/openapi.json')).json;
    expect(doc.openapi).toMatch(/^3\./);
    for (const [path, method] of [
      ['/v1/auth/signup', 'post'],
      ['/v1/auth/login', 'post'],
      ['/v1/account', 'get'],
      ['/v1/account/rotate-api-key', 'post'],
      ['/v1/domains', 'get'],
      ['/v1/domains', 'post'],
      ['/v1/domains', 'delete'],
      ['/v1/widget/verify', 'post'],
      ['/v1/widget/load', 'post'],
      ['/v1/widget/register-domain', 'post'],
      ['/v1/calculators', 'get'],
      ['/v1/calculators/{calcId}', 'get'],
    ]) {
      expect(doc.paths[path as string]?.[method as string]).toBeDefined();
    }
    const loadAnswer = doc.paths['/v1/widget/load'].post.responses['200'].content['application/json'].schema;
    expect(loadAnswer.required).toEqual(['calcId', 'calculator', 'values']);
    const signup = doc.paths['/v1/auth/signup'].post;
    expect(signup.requestBody.content['application/json'].schema.properties.password.minLength).toBe(10);
    expect(doc.paths['/v1/account'].get.security).toEqual([{ bearer: [] }]);
    const page = await app.request('GET', '/docs');
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.text).not.toMatch(/https?:\/\//);
    expect(page.text).toContain('spec-url="/openapi.json"');
    // The reader is served by this server (rendering in a browser: test/docs/api-reference.test.ts).
    const reader = await app.request('GET', '/docs/redoc.standalone.js');
    expect(reader.status).toBe(200);
    expect(reader.headers.get('content-type')).toContain('text/javascript');
    expect(reader.text.length).toBeGreaterThan(500_000);
  });
});

describe('unexpected failures', () => {
  // One route served by Elysia, one by Bun's router directly (the widget's native routes).
  test.each([
    ['GET', '/v1/domains'],
    ['POST', '/v1/widget/load'],
  ])(
    'a bug in %s %s answers 500 internal whose message repeats the request id; the log has the cause, the answer not',
    async (method, path) => {
      using app = testApp();
      const { token, apiKey } = await app.signup();
      // A table gone under the app: the query fails as a bug would, not as an outage.
      await app.sql('DROP TABLE domains');
      const res = await app.request(method, path, {
        token,
        body: method === 'POST' ? { apiKey, domain: 'https://shop.example', calcId: 'bmi' } : undefined,
      });
      expect(res.status).toBe(500);
      expect(res.json.error.code).toBe('internal');
      const requestId = res.headers.get('x-request-id') as string;
      expect(res.json.error.message).toContain(requestId);
      expect(res.text).not.toMatch(/database|sqlite|\.ts:\d+/i);
      const logged = app.logs.map((line) => JSON.parse(line)).find((l) => l.level === 'error');
      expect(logged).toMatchObject({ requestId, msg: 'unhandled error' });
      expect(typeof logged.stack).toBe('string');
      const requestLine = (await app.requestLines((l) => l.path === path)).find((l) => l.path === path);
      expect(requestLine).toMatchObject({ requestId, method, status: 500 });
    },
  );
});

describe('request log status', () => {
  test('answers a handler builds itself are logged with their own status (304, 204)', async () => {
    using app = testApp();
    const first = await app.request('GET', '/widget.js');
    await app.request('GET', '/widget.js', { headers: { 'if-none-match': first.headers.get('etag') as string } });
    await app.request('OPTIONS', '/v1/widget/load');
    await app.request('POST', '/v1/widget/load', { body: 'x'.repeat(70_000), headers: { 'content-length': '70000' } });
    // Each answer's line, whichever order the hooks write them in.
    const lines = await app.requestLines(
      (l) => l.method === 'GET' && l.status === 304,
      (l) => l.method === 'OPTIONS',
      (l) => l.method === 'POST',
    );
    const statuses = lines.map((l) => `${l.method} ${l.status}`);
    expect(statuses).toContain('GET 304');
    expect(statuses).toContain('OPTIONS 204');
    expect(statuses).toContain('POST 413');
  });
});
