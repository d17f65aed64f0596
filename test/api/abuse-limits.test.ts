import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import type { TestApp } from '../helpers/test-app.ts';
import { listeningApp } from '../helpers/listening-app.ts';
import { extraShop, SHOP_ORIGIN as ORIGIN } from '../helpers/owners.ts';
import { startTarget, type TargetServer } from '../helpers/webhook-target.ts';

// Every test hashes or checks passwords (argon2id, slow on purpose): a loaded machine
// must not turn that into a failure.
setDefaultTimeout(30_000);

const PROXY = { 'trust-proxy': '127.0.0.1/32' };
const START = Date.UTC(2026, 2, 3, 10, 0, 0);

// A shop's webhook, which counts its calls.
let webhook: TargetServer;
beforeAll(() => {
  webhook = startTarget('127.0.0.2');
});
afterAll(() => webhook.stop());

async function ownerWithDomain(app: TestApp) {
  const owner = await app.signup();
  await app.request('POST', '/v1/domains', { token: owner.token, body: { domain: ORIGIN } });
  return owner;
}

describe('per-client limits on the widget routes', () => {
  test('per minute: exactly the limit is served, the next is 429 with Retry-After, not counted, no webhook call', async () => {
    const clock = { now: START };
    await using server = listeningApp({
      flags: { ...PROXY, 'rate-widget-per-minute': 5, 'rate-widget-per-day': 100 },
      env: { CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.2/32' },
      now: () => new Date(clock.now),
    });
    // Every load below the limit calls the shop's webhook; a refused one must not.
    const { apiKey, token } = await extraShop(server.app, webhook.url('/prefill'));
    const body = { apiKey, domain: ORIGIN, calcId: 'bmi' };
    const client = '198.51.100.7';
    for (let i = 0; i < 5; i++) expect((await server.post('/v1/widget/load', body, { client })).status).toBe(200);
    clock.now = START + 20_000;
    for (const route of ['load', 'verify', 'register-domain']) {
      const refused = await server.post(`/v1/widget/${route}`, body, { client });
      expect(refused.status).toBe(429);
      expect(refused.json.error.code).toBe('rate_limited');
      expect(refused.headers.get('retry-after')).toBe('40');
    }
    expect(webhook.hits).toBe(5);
    expect((await server.app.request('GET', '/v1/account', { token })).json.usage.used).toBe(5);
    // Another visitor of the same page is not affected.
    expect((await server.post('/v1/widget/load', body, { client: '198.51.100.8' })).status).toBe(200);
    clock.now = START + 60_000;
    expect((await server.post('/v1/widget/load', body, { client })).status).toBe(200);
    expect(webhook.hits).toBe(7);
  });

  test('per day: exactly the limit over several minutes, then 429 until the UTC day ends', async () => {
    const clock = { now: START };
    await using server = listeningApp({
      flags: { ...PROXY, 'rate-widget-per-minute': 4, 'rate-widget-per-day': 10 },
      now: () => new Date(clock.now),
    });
    const { apiKey } = await ownerWithDomain(server.app);
    const body = { apiKey, domain: ORIGIN, calcId: 'bmi' };
    const statuses: number[] = [];
    for (let minute = 0; minute < 4; minute++) {
      clock.now = START + minute * 60_000;
      for (let i = 0; i < 4; i++)
        statuses.push((await server.post('/v1/widget/verify', body, { client: '203.0.113.5' })).status);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    const refused = await server.post('/v1/widget/verify', body, { client: '203.0.113.5' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBe((Date.UTC(2026, 2, 4) - clock.now) / 1000);
    clock.now = Date.UTC(2026, 2, 4);
    expect((await server.post('/v1/widget/verify', body, { client: '203.0.113.5' })).status).toBe(200);
  });

  test('counted per API key: one key at its limit leaves another key from the same client alone', async () => {
    await using server = listeningApp({ flags: { ...PROXY, 'rate-widget-per-minute': 2 } });
    const first = await ownerWithDomain(server.app);
    const second = await ownerWithDomain(server.app);
    const client = '198.51.100.7';
    const body = (apiKey: string) => ({ apiKey, domain: ORIGIN, calcId: 'bmi' });
    const runs = async (apiKey: string) => {
      const out: number[] = [];
      for (let i = 0; i < 3; i++) out.push((await server.post('/v1/widget/verify', body(apiKey), { client })).status);
      return out;
    };
    expect(await runs(first.apiKey)).toEqual([200, 200, 429]);
    expect(await runs(second.apiKey)).toEqual([200, 200, 429]);
  });

  test('an IPv6 client counts by its /64', async () => {
    await using server = listeningApp({ flags: { ...PROXY, 'rate-widget-per-minute': 2 } });
    const { apiKey } = await ownerWithDomain(server.app);
    const body = { apiKey, domain: ORIGIN, calcId: 'bmi' };
    const status = async (client: string) => (await server.post('/v1/widget/verify', body, { client })).status;
    expect(await status('2001:db8:1:2::1')).toBe(200);
    expect(await status('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe(200);
    expect(await status('2001:db8:1:2::ffff')).toBe(429);
    expect(await status('2001:db8:1:3::1')).toBe(200);
  });

  test('X-Forwarded-For is believed only from a trusted proxy', async () => {
    await using server = listeningApp({ flags: { 'rate-widget-per-minute': 2 } });
    const { apiKey } = await ownerWithDomain(server.app);
    const body = { apiKey, domain: ORIGIN, calcId: 'bmi' };
    const statuses: number[] = [];
    // Without --trust-proxy every request is the socket's 127.0.0.1, whatever the header says.
    for (const client of ['198.51.100.1', '198.51.100.2', '198.51.100.3'])
      statuses.push((await server.post('/v1/widget/verify', body, { client })).status);
    expect(statuses).toEqual([200, 200, 429]);
  });
});

describe('the widget limiter cannot be emptied from outside', () => {
  test('junk keys count per address alone and add no entries; a limited client is never forgotten', async () => {
    const clock = { now: START };
    await using server = listeningApp({
      flags: { ...PROXY, 'rate-widget-per-minute': 5, 'rate-widget-per-day': 100, 'rate-clients-max': 10 },
      now: () => new Date(clock.now),
    });
    const { apiKey } = await ownerWithDomain(server.app);
    const attacker = '203.0.113.66';
    const load = (key: string, client: string) =>
      server.post('/v1/widget/load', { apiKey: key, domain: ORIGIN, calcId: 'bmi' }, { client });
    for (let i = 0; i < 5; i++) expect((await load(apiKey, attacker)).status).toBe(200);
    expect((await load(apiKey, attacker)).status).toBe(429);
    // 2,000 made-up keys from the same address: five are looked at (401), then the address's bucket is full.
    const junk: number[] = [];
    for (let i = 0; i < 2_000; i++) junk.push((await load(`pk_junk${i}`, attacker)).status);
    expect(junk.filter((status) => status === 401)).toHaveLength(5);
    expect(junk.filter((status) => status === 429)).toHaveLength(1_995);
    // Two entries: the attacker's count for the key, and its bucket for unknown keys.
    expect(server.app.widgetLimiter.size).toBe(2);
    // Junk from 2,000 other addresses fills the limiter (10 clients) over and over: the
    // attacker's limited count is never what makes room.
    for (let i = 0; i < 2_000; i++) {
      const client = `198.51.${(i >> 8) & 255}.${i & 255}`;
      expect((await load(`pk_junk${i}`, client)).status).toBe(401);
    }
    expect(server.app.widgetLimiter.size).toBeLessThanOrEqual(10);
    const still = await load(apiKey, attacker);
    expect([still.status, still.headers.get('retry-after')]).toEqual([429, '60']);
    // Its window ends: served again, and the day's count is still kept (5 + 5 of 100).
    clock.now = START + 60_000;
    for (let i = 0; i < 5; i++) expect((await load(apiKey, attacker)).status).toBe(200);
    expect((await load(apiKey, attacker)).status).toBe(429);
  }, 120_000);

  test('full of limited clients, a new client is refused with Retry-After rather than one of them forgotten', async () => {
    const clock = { now: START + 15_000 };
    await using server = listeningApp({
      flags: { ...PROXY, 'rate-widget-per-minute': 1, 'rate-clients-max': 10 },
      now: () => new Date(clock.now),
    });
    const { apiKey } = await ownerWithDomain(server.app);
    const body = { apiKey, domain: ORIGIN, calcId: 'bmi' };
    const clients = Array.from({ length: 10 }, (_, i) => `198.51.100.${i}`);
    for (const client of clients) expect((await server.post('/v1/widget/verify', body, { client })).status).toBe(200);
    const newcomer = await server.post('/v1/widget/verify', body, { client: '198.51.100.200' });
    expect(newcomer.status).toBe(429);
    expect(newcomer.json.error.code).toBe('rate_limited');
    expect(newcomer.headers.get('retry-after')).toBe('45');
    for (const client of clients) expect((await server.post('/v1/widget/verify', body, { client })).status).toBe(429);
    clock.now = START + 60_000;
    expect((await server.post('/v1/widget/verify', body, { client: '198.51.100.200' })).status).toBe(200);
  });
});

describe('successful sign-ins are limited', () => {
  const signIn = (server: Awaited<ReturnType<typeof listeningApp>>, email: string, password: string, client: string) =>
    server.post('/v1/auth/login', { email, password }, { client });

  test('exactly 10 a minute per account, from any address; then 429 until the minute ends', async () => {
    const clock = { now: START + 15_000 };
    await using server = listeningApp({ flags: PROXY, now: () => new Date(clock.now) });
    const { email, password } = await server.app.signup();
    for (let i = 0; i < 10; i++) expect((await signIn(server, email, password, `203.0.113.${i}`)).status).toBe(200);
    for (const client of ['203.0.113.0', '198.51.100.1']) {
      const refused = await signIn(server, email, password, client);
      expect([refused.status, refused.json.error.code]).toEqual([429, 'rate_limited']);
      expect(refused.headers.get('retry-after')).toBe('45');
      expect(refused.json.token).toBeUndefined();
    }
    const other = await server.app.signup();
    expect((await signIn(server, other.email, other.password, '203.0.113.0')).status).toBe(200);
    clock.now = START + 60_000;
    expect((await signIn(server, email, password, '198.51.100.1')).status).toBe(200);
  });

  test('exactly 30 a minute per address, over any accounts; the flags set both limits', async () => {
    const clock = { now: START };
    await using server = listeningApp({ flags: PROXY, now: () => new Date(clock.now) });
    const owners = [await server.app.signup(), await server.app.signup(), await server.app.signup()];
    const address = '203.0.113.9';
    for (const owner of owners)
      for (let i = 0; i < 10; i++)
        expect((await signIn(server, owner.email, owner.password, address)).status).toBe(200);
    const fourth = await server.app.signup();
    const refused = await signIn(server, fourth.email, fourth.password, address);
    expect([refused.status, refused.headers.get('retry-after')]).toEqual([429, '60']);
    expect((await signIn(server, fourth.email, fourth.password, '203.0.113.10')).status).toBe(200);

    await using tight = listeningApp({
      flags: { ...PROXY, 'rate-signin-per-minute': 2, 'rate-signin-address-per-minute': 0 },
      now: () => new Date(clock.now),
    });
    const owner = await tight.app.signup();
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await signIn(tight, owner.email, owner.password, address)).status);
    expect(statuses).toEqual([200, 200, 429]);
  }, 120_000);

  test("16 parallel loops of correct sign-ins on one account: exactly 10 succeed, another owner's sign-in stays under a second", async () => {
    const clock = { now: START };
    await using server = listeningApp({ flags: PROXY, now: () => new Date(clock.now) });
    const target = await server.app.signup();
    const victim = await server.app.signup();
    // The loops run in a process of their own, as an attacker's would: the server's event
    // loop serves them, the test's does not run them. At the lowest priority, since an
    // attacker's requests are made on the attacker's cores, not the server's (here they
    // share two). They stop when their stdin closes.
    const loops = [process.execPath, '-e', SIGN_IN_LOOPS, server.base, target.email, target.password];
    const attacker = Bun.spawn(['nice', '-n', '19', ...loops], {
      stdin: 'pipe',
      stdout: 'pipe',
      stderr: 'inherit',
    });
    const lines = attacker.stdout.pipeThrough(new TextDecoderStream()).getReader();
    // "ready": the loops have had their ten sign-ins and are being refused.
    expect((await lines.read()).value).toBe('ready\n');
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const res = await signIn(server, victim.email, victim.password, '198.51.100.20');
      times.push(performance.now() - started);
      expect(res.status).toBe(200);
    }
    attacker.stdin.end();
    let rest = '';
    for (let read = await lines.read(); !read.done; read = await lines.read()) rest += read.value;
    expect(await attacker.exited).toBe(0);
    const counts = JSON.parse(rest) as Record<string, number>;
    expect(counts['200']).toBe(10);
    expect(Object.keys(counts).filter((status) => !['200', '429', '503'].includes(status))).toEqual([]);
    // Generous: a sign-in is one argon2 check (~0.1 s), and the loops' refusals cost no hash.
    expect(Math.max(...times)).toBeLessThan(1_000);
  }, 120_000);
});

/**
 * 16 loops signing in to one account as fast as the server answers, each from an address
 * of its own (X-Forwarded-For); prints "ready" once the stream is steady (every loop has had
 * an answer to a sign-in it started after the tenth success: no check of the first burst is
 * still running), and the count of each status once its stdin closes. Arguments: base URL,
 * email, password.
 */
const SIGN_IN_LOOPS = `
const [base, email, password] = process.argv.slice(-3);
const counts = {};
let running = true;
let ready = false;
const steady = new Set();
(async () => {
  for await (const _ of Bun.stdin.stream()) {}
  running = false;
})();
await Promise.all(
  Array.from({ length: 16 }, async (_, i) => {
    while (running) {
      const afterTheTenth = (counts[200] ?? 0) >= 10;
      const res = await fetch(base + '/v1/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.' + i },
        body: JSON.stringify({ email, password }),
      });
      await res.arrayBuffer();
      counts[res.status] = (counts[res.status] ?? 0) + 1;
      if (afterTheTenth) steady.add(i);
      if (!ready && steady.size === 16) {
        ready = true;
        process.stdout.write('ready\\n');
      }
    }
  }),
);
process.stdout.write(JSON.stringify(counts));
`;

describe('sign-up limit per client address', () => {
  test('exactly the limit per hour; then 429 without a new account; other addresses unaffected', async () => {
    const clock = { now: START };
    await using server = listeningApp({
      flags: { ...PROXY, 'rate-signup-per-hour': 3 },
      now: () => new Date(clock.now),
    });
    const signup = (i: number, client: string) =>
      server.post('/v1/auth/signup', { email: `u${i}@shop.example`, password: 'long enough pw' }, { client });
    for (let i = 0; i < 3; i++) expect((await signup(i, '203.0.113.5')).status).toBe(201);
    clock.now = START + 10 * 60_000;
    const refused = await signup(3, '203.0.113.5');
    expect(refused.status).toBe(429);
    expect(refused.json.error.code).toBe('rate_limited');
    expect(refused.headers.get('retry-after')).toBe(String(50 * 60));
    expect(await server.app.accounts.findByEmail('u3@shop.example')).toBeUndefined();
    expect((await signup(4, '203.0.113.6')).status).toBe(201);
    clock.now = START + 60 * 60_000;
    expect((await signup(3, '203.0.113.5')).status).toBe(201);
  });

  test('a taken email is refused before the password is hashed', async () => {
    await using server = listeningApp();
    await server.app.signup('taken@shop.example');
    const hashes: number[] = [];
    const original = Bun.password.hash;
    // Watch (not replace) the real hash function: the refusal must come before it.
    Bun.password.hash = ((...args: Parameters<typeof original>) => {
      hashes.push(1);
      return original(...args);
    }) as typeof original;
    try {
      const res = await server.post('/v1/auth/signup', { email: 'TAKEN@shop.example', password: 'long enough pw' });
      expect(res.status).toBe(409);
      expect(hashes).toHaveLength(0);
    } finally {
      Bun.password.hash = original;
    }
  });
});

describe('failed sign-ins cannot lock an owner out', () => {
  test('a stranger at the limit is refused; the owner signs in from another address', async () => {
    await using server = listeningApp({ flags: PROXY });
    const { email, password } = await server.app.signup();
    const attacker = '203.0.113.66';
    for (let i = 0; i < 10; i++)
      expect(
        (await server.post('/v1/auth/login', { email, password: 'wrong password!' }, { client: attacker })).status,
      ).toBe(401);
    const limited = await server.post('/v1/auth/login', { email, password }, { client: attacker });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const owner = await server.post('/v1/auth/login', { email, password }, { client: '198.51.100.20' });
    expect(owner.status).toBe(200);
    expect(owner.json.token).toBeString();
  });

  test('one address spraying many emails is stopped at 50 failures in all', async () => {
    await using server = listeningApp({ flags: PROXY });
    const { email, password } = await server.app.signup();
    const attacker = '203.0.113.66';
    // 60 guesses at once, each at another email: the address's count is checked and charged
    // in one step before the slow hash check, so exactly 50 get through to it. A guess the
    // bounded password queue turns away (503 busy, nothing charged) is sent again.
    const statuses = await Promise.all(
      Array.from({ length: 60 }, async (_, i) => {
        const guess = { email: `guess${i}@shop.example`, password: 'wrong password!' };
        for (;;) {
          const { status, json } = await server.post('/v1/auth/login', guess, { client: attacker });
          if (json?.error?.code !== 'busy') return status;
        }
      }),
    );
    expect(statuses.filter((s) => s === 401)).toHaveLength(50);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    expect((await server.post('/v1/auth/login', { email, password }, { client: attacker })).status).toBe(429);
    expect((await server.post('/v1/auth/login', { email, password }, { client: '203.0.113.67' })).status).toBe(200);
    // 51 argon2 checks: more than bun's 5 s default on a busy machine.
  }, 120_000);
});

describe('emails with control or invisible format characters', () => {
  test.each([
    ['escape sequence', 'a\u001b[2Jb@shop.example'],
    ['newline', 'a@shop.example\nX-Injected: 1'],
    ['bell', 'a\u0007@shop.example'],
    ['C1 control', 'a\u0085@shop.example'],
    ['bidi override', 'a\u202e@shop.example'],
    ['zero-width space', 'ad\u200bmin@shop.example'],
    ['byte order mark', '\ufeffowner@shop.example'],
    ['soft hyphen', 'ow\u00adner@shop.example'],
  ])('%s: 400 at sign-up and at sign-in, and nothing is stored', async (_name, email) => {
    await using server = listeningApp();
    const signup = await server.post('/v1/auth/signup', { email, password: 'long enough pw' });
    expect(signup.status).toBe(400);
    expect(signup.json.error.code).toBe('invalid_request');
    expect(await server.app.accounts.count()).toBe(0);
    const login = await server.post('/v1/auth/login', { email, password: 'long enough pw' });
    expect(login.status).toBe(400);
    expect(login.json.error.code).toBe('invalid_request');
  });

  test('plain and international addresses still sign up', async () => {
    await using server = listeningApp();
    for (const email of ['owner@shop.example', 'zoë@café.example'])
      expect((await server.post('/v1/auth/signup', { email, password: 'long enough pw' })).status).toBe(201);
  });
});
