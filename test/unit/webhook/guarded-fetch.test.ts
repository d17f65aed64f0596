import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createAddressPolicy } from '../../../src/webhook/address-policy.ts';
import { guardedFetch } from '../../../src/webhook/guarded-fetch.ts';
import { closedPort, startTarget, startTargetPair, type TargetServer } from '../../helpers/webhook-target.ts';
import { ALLOWED, countingResolver, deps, trackedTargets, USER_AGENT } from './webhook-test-kit.ts';

const target = trackedTargets();

describe('a 2xx JSON object', () => {
  test('through an IP literal: ok with the body', async () => {
    const server = target(ALLOWED, () => Response.json({ weight: 70, heightCm: 180 }));
    const result = await guardedFetch(server.url('/prefill'), {}, deps());
    expect(result).toMatchObject({ outcome: 'ok', httpStatus: 200, body: { weight: 70, heightCm: 180 } });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(result.durationMs).toBeLessThan(300);
    expect(server.hits).toBe(1);
  });

  test('through a name: connects to the checked IP, Host is the original host:port', async () => {
    const server = target(ALLOWED, () => Response.json({ ok: true }));
    const resolve = countingResolver({ 'shop.example.test': [[ALLOWED]] });
    const result = await guardedFetch(
      `http://Shop.Example.Test:${server.port}/prefill?calc=bmi#frag`,
      {},
      deps({ resolve }),
    );
    expect(result.outcome).toBe('ok');
    expect(resolve.calls).toEqual(['shop.example.test']);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.headers.host).toBe(`shop.example.test:${server.port}`);
    expect(server.requests[0]?.path).toBe('/prefill?calc=bmi');
    expect(server.requests[0]?.method).toBe('GET');
  });

  test.each([[201], [203], [299]])('status %d counts as success', async (status) => {
    const server = target(ALLOWED, () => Response.json({ a: 1 }, { status }));
    expect(await guardedFetch(server.url(), {}, deps())).toMatchObject({ outcome: 'ok', httpStatus: status });
  });
});

describe('headers sent', () => {
  test('configured headers arrive next to Accept and User-Agent', async () => {
    const server = target(ALLOWED);
    await guardedFetch(server.url(), { Authorization: 'Bearer s3cr3t', 'X-Shop-Id': '42' }, deps());
    const headers = server.requests[0]?.headers ?? {};
    expect(headers.authorization).toBe('Bearer s3cr3t');
    expect(headers['x-shop-id']).toBe('42');
    expect(headers.accept).toBe('application/json');
    expect(headers['user-agent']).toBe(USER_AGENT);
    expect(headers.cookie).toBeUndefined();
  });

  test.each([
    [{ accept: 'text/plain' }, 'text/plain', USER_AGENT],
    [{ ACCEPT: 'application/vnd.shop+json' }, 'application/vnd.shop+json', USER_AGENT],
    [{ 'user-agent': 'Mine/1.0' }, 'application/json', 'Mine/1.0'],
    [{ 'User-Agent': 'Mine/2.0', Accept: '*/*' }, '*/*', 'Mine/2.0'],
  ])('customer headers %j win over the service defaults', async (configured, accept, userAgent) => {
    const server = target(ALLOWED);
    await guardedFetch(server.url(), configured, deps());
    expect(server.requests[0]?.headers.accept).toBe(accept);
    expect(server.requests[0]?.headers['user-agent']).toBe(userAgent);
  });

  test.each([
    [{ Host: 'evil.test' }],
    [{ host: 'evil.test', 'Transfer-Encoding': 'chunked', Connection: 'close', 'Content-Length': '5' }],
    [{ 'X-Bad': 'a\r\nX-Injected: 1' }],
  ])('forbidden or malformed configured headers %j are dropped, Host stays ours', async (configured) => {
    const server = target(ALLOWED);
    const resolve = countingResolver({ 'shop.example.test': [[ALLOWED]] });
    const result = await guardedFetch(`http://shop.example.test:${server.port}/`, configured, deps({ resolve }));
    expect(result.outcome).toBe('ok');
    const headers = server.requests[0]?.headers ?? {};
    expect(headers.host).toBe(`shop.example.test:${server.port}`);
    expect(headers['x-injected']).toBeUndefined();
    expect(headers['x-bad']).toBeUndefined();
    expect(headers['transfer-encoding']).toBeUndefined();
  });

  test('no cookie jar: a Set-Cookie is never sent back', async () => {
    const server = target(ALLOWED, () => Response.json({}, { headers: { 'Set-Cookie': 'session=abc; Path=/' } }));
    await guardedFetch(server.url(), {}, deps());
    await guardedFetch(server.url(), {}, deps());
    expect(server.requests.map((request) => request.headers.cookie)).toEqual([undefined, undefined]);
  });
});

describe('non-2xx statuses', () => {
  test.each([[400], [401], [403], [404], [429], [500], [502], [503]])('%d -> http_error', async (status) => {
    const server = target(ALLOWED, () => Response.json({ weight: 70 }, { status }));
    expect(await guardedFetch(server.url(), {}, deps())).toMatchObject({ outcome: 'http_error', httpStatus: status });
    expect(server.hits).toBe(1);
  });
});

describe('redirects are never followed', () => {
  let privateTarget: TargetServer;
  let allowedElsewhere: TargetServer;
  // 127.0.0.4 is allowlisted too, so following a redirect there would succeed: only
  // `redirect: "manual"` keeps its hit counter at 0.
  const twoAllowed = createAddressPolicy({ allowCidrs: [`${ALLOWED}/32`, '127.0.0.4/32'] });
  beforeAll(() => {
    privateTarget = startTarget('127.0.0.1');
    allowedElsewhere = startTarget('127.0.0.4');
  });
  afterAll(async () => {
    await privateTarget.stop();
    await allowedElsewhere.stop();
  });

  test.each([[301], [302], [303], [307], [308]])('%d to a private target -> redirect', async (status) => {
    const server = target(
      ALLOWED,
      () => new Response(null, { status, headers: { Location: privateTarget.url('/steal') } }),
    );
    const result = await guardedFetch(server.url(), { Authorization: 'Bearer s3cr3t' }, deps({ policy: twoAllowed }));
    expect(result).toMatchObject({ outcome: 'redirect', httpStatus: status });
    expect(privateTarget.hits).toBe(0);
  });

  test.each([[301], [302], [303], [307], [308]])(
    '%d to another allowed target -> redirect, secret stays home',
    async (status) => {
      const server = target(
        ALLOWED,
        () => new Response(null, { status, headers: { Location: allowedElsewhere.url('/collect') } }),
      );
      const result = await guardedFetch(server.url(), { Authorization: 'Bearer s3cr3t' }, deps({ policy: twoAllowed }));
      expect(result).toMatchObject({ outcome: 'redirect', httpStatus: status });
      expect(allowedElsewhere.hits).toBe(0);
      expect(server.requests[0]?.headers.authorization).toBe('Bearer s3cr3t');
    },
  );

  test.each([[300], [304]])('%d without Location -> redirect', async (status) => {
    const server = target(ALLOWED, () => new Response(null, { status }));
    expect(await guardedFetch(server.url(), {}, deps())).toMatchObject({ outcome: 'redirect', httpStatus: status });
  });
});

describe('body must be a JSON object', () => {
  test.each([
    ['[]', 'not_object'],
    ['[{"weight":70}]', 'not_object'],
    ['null', 'not_object'],
    ['"x"', 'not_object'],
    ['1', 'not_object'],
    ['true', 'not_object'],
    ['{', 'invalid_json'],
    ['', 'invalid_json'],
    ['<html>oops</html>', 'invalid_json'],
    ['{"a":1} trailing', 'invalid_json'],
    ["{'a':1}", 'invalid_json'],
    ['NaN', 'invalid_json'],
    ['{"a":1}', 'ok'],
    ['  {"a":1}\n', 'ok'],
    ['\ufeff{"a":1}', 'ok'],
  ])('%j -> %s', async (body, outcome) => {
    const server = target(ALLOWED, () => new Response(body, { headers: { 'Content-Type': 'application/json' } }));
    const result = await guardedFetch(server.url(), {}, deps());
    expect(result).toMatchObject({ outcome, httpStatus: 200 });
    expect(result.body !== undefined).toBe(outcome === 'ok');
  });

  test('invalid UTF-8 -> invalid_json', async () => {
    const server = target(
      ALLOWED,
      () => new Response(new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d])),
    );
    expect((await guardedFetch(server.url(), {}, deps())).outcome).toBe('invalid_json');
  });

  test('204 No Content -> invalid_json', async () => {
    const server = target(ALLOWED, () => new Response(null, { status: 204 }));
    expect(await guardedFetch(server.url(), {}, deps())).toMatchObject({ outcome: 'invalid_json', httpStatus: 204 });
  });
});

describe('blocked destinations are never contacted', () => {
  let loopback: TargetServer;
  beforeAll(() => {
    loopback = startTarget('127.0.0.1');
  });
  afterAll(async () => {
    await loopback.stop();
  });

  test.each([
    ['IPv4 literal', (port: number) => `http://127.0.0.1:${port}/`],
    ['decimal literal', (port: number) => `http://2130706433:${port}/`],
    ['short literal', (port: number) => `http://127.1:${port}/`],
    ['mapped IPv6 literal', (port: number) => `http://[::ffff:127.0.0.1]:${port}/`],
    ['localhost', (port: number) => `http://localhost:${port}/`],
    ['sub.localhost', (port: number) => `http://app.localhost:${port}/`],
  ])('%s of a 127.0.0.1 server -> blocked_address', async (_label, url) => {
    const resolve = countingResolver({});
    const result = await guardedFetch(url(loopback.port), {}, deps({ resolve }));
    expect(result).toMatchObject({ outcome: 'blocked_address', httpStatus: null });
    expect(loopback.hits).toBe(0);
    expect(resolve.calls).toEqual([]);
  });

  test.each([
    [['127.0.0.1']],
    [['8.8.8.8', '127.0.0.1']],
    [[ALLOWED, '127.0.0.1']],
    [['127.0.0.1', ALLOWED]],
    [['::ffff:127.0.0.1']],
  ])('a name answering %j -> blocked_address, one lookup, nobody contacted', async (answers) => {
    const allowedServer = target(ALLOWED, () => Response.json({}), loopback.port);
    const resolve = countingResolver({ 'mixed.example.test': [answers] });
    const result = await guardedFetch(`http://mixed.example.test:${loopback.port}/`, {}, deps({ resolve }));
    expect(result.outcome).toBe('blocked_address');
    expect(resolve.calls).toEqual(['mixed.example.test']);
    expect(loopback.hits).toBe(0);
    expect(allowedServer.hits).toBe(0);
  });

  test.each([
    ['ftp', (port: number) => `ftp://${ALLOWED}:${port}/`, 'bad_scheme'],
    ['file', () => 'file:///etc/passwd', 'bad_scheme'],
    ['port 22', () => `http://${ALLOWED}:22/`, 'blocked_address'],
    ['port 0', () => `http://${ALLOWED}:0/`, 'blocked_address'],
    ['user info', (port: number) => `http://user:pw@${ALLOWED}:${port}/`, 'blocked_address'],
    ['backslash', (port: number) => `http://${ALLOWED}:${port}\\@127.0.0.1/`, 'blocked_address'],
    ['not a URL', () => 'not a url', 'blocked_address'],
  ])('%s -> %s, checked again at fetch time', async (_label, url, outcome) => {
    const server = target(ALLOWED);
    expect(await guardedFetch(url(server.port), {}, deps())).toMatchObject({ outcome, httpStatus: null });
    expect(server.hits).toBe(0);
  });
});

describe('DNS rebinding', () => {
  test('each fetch resolves once and connects to the address it checked', async () => {
    const [allowed, loopback] = startTargetPair(
      { hostname: ALLOWED, handler: () => Response.json({ from: 'allowed' }) },
      { hostname: '127.0.0.1', handler: () => Response.json({ from: 'loopback' }) },
    );
    target.track(allowed, loopback);
    expect(allowed.port).toBe(loopback.port);
    // Public (allowlisted) at the first lookup, private at every later one.
    const resolve = countingResolver({ 'rebind.example.test': [[ALLOWED], ['127.0.0.1']] });
    const url = `http://rebind.example.test:${allowed.port}/`;

    const first = await guardedFetch(url, { Authorization: 'Bearer s3cr3t' }, deps({ resolve }));
    expect(first).toMatchObject({ outcome: 'ok', body: { from: 'allowed' } });
    expect(resolve.calls).toHaveLength(1);

    const second = await guardedFetch(url, { Authorization: 'Bearer s3cr3t' }, deps({ resolve }));
    expect(second.outcome).toBe('blocked_address');
    expect(resolve.calls).toHaveLength(2);

    expect(allowed.hits).toBe(1);
    expect(loopback.hits).toBe(0);
  });
});

describe('unreachable', () => {
  test('a closed port on an allowed address', async () => {
    const port = await closedPort(ALLOWED);
    expect(await guardedFetch(`http://${ALLOWED}:${port}/`, {}, deps())).toMatchObject({
      outcome: 'unreachable',
      httpStatus: null,
    });
  });

  test.each([
    ['no answer', { 'gone.example.test': [[]] }],
    ['lookup fails', {}],
  ])('a name with %s', async (_label, table) => {
    const result = await guardedFetch('http://gone.example.test:8080/', {}, deps({ resolve: countingResolver(table) }));
    expect(result).toMatchObject({ outcome: 'unreachable', httpStatus: null });
  });

  test('a server that closes the connection mid-body', async () => {
    // A raw socket: promise 100 bytes, send 5, hang up.
    const listener = Bun.listen({
      hostname: ALLOWED,
      port: 0,
      socket: {
        data(socket) {
          socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":');
          socket.end();
        },
      },
    });
    try {
      const result = await guardedFetch(`http://${ALLOWED}:${listener.port}/`, {}, deps());
      expect(result).toMatchObject({ outcome: 'unreachable', httpStatus: 200 });
    } finally {
      listener.stop(true);
    }
  });
});

describe('bodies with a declared length', () => {
  /** A raw socket server: the test decides every byte and every pause. */
  function rawServer(onConnect: (socket: { write(data: string): void; end(): void }) => void) {
    return Bun.listen({ hostname: ALLOWED, port: 0, socket: { data: (socket) => onConnect(socket) } });
  }

  test('a declared-length body that drips ends at the time budget, not later', async () => {
    const timers: ReturnType<typeof setInterval>[] = [];
    const listener = rawServer((socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{');
      timers.push(setInterval(() => socket.write(' '), 100));
    });
    try {
      const started = performance.now();
      const result = await guardedFetch(`http://${ALLOWED}:${listener.port}/`, {}, deps({ timeoutMs: 400 }));
      const elapsed = performance.now() - started;
      expect(result.outcome).toBe('timeout');
      expect(elapsed).toBeLessThan(1000);
    } finally {
      for (const timer of timers) clearInterval(timer);
      listener.stop(true);
    }
  });

  test('bytes past the declared length are never read into the body', async () => {
    const listener = rawServer((socket) => {
      socket.write(
        `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 12\r\n\r\n{"weightKg":1}${' '.repeat(1024 * 1024)}`,
      );
      socket.end();
    });
    try {
      const result = await guardedFetch(`http://${ALLOWED}:${listener.port}/`, {}, deps());
      // 12 bytes of `{"weightKg":1}` is `{"weightKg":` — not JSON: the read stopped where declared.
      expect(result).toMatchObject({ outcome: 'invalid_json', httpStatus: 200 });
    } finally {
      listener.stop(true);
    }
  });
});

describe('proxy environment variables are ignored', () => {
  const names = [
    'HTTP_PROXY',
    'http_proxy',
    'HTTPS_PROXY',
    'https_proxy',
    'ALL_PROXY',
    'all_proxy',
    'NO_PROXY',
    'no_proxy',
  ];
  const saved = new Map<string, string | undefined>();
  let proxy: TargetServer;
  beforeAll(() => {
    proxy = startTarget('127.0.0.3', () => Response.json({ via: 'proxy' }));
    for (const name of names) saved.set(name, process.env[name]);
    for (const name of names) delete process.env[name];
    for (const name of names.slice(0, 6)) process.env[name] = `http://127.0.0.3:${proxy.port}`;
  });
  afterAll(async () => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await proxy.stop();
  });

  test('HTTP_PROXY/ALL_PROXY set: the request still goes straight to the checked IP', async () => {
    const server = target(ALLOWED, () => Response.json({ via: 'direct' }));
    const result = await guardedFetch(server.url(), { Authorization: 'Bearer s3cr3t' }, deps());
    expect(result).toMatchObject({ outcome: 'ok', body: { via: 'direct' } });
    expect(proxy.hits).toBe(0);
    expect(server.hits).toBe(1);
  });
});
