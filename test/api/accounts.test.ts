import { describe, expect, test } from 'bun:test';
import { SignJWT } from 'jose';
import { TEST_JWT_SECRET, testApp } from '../helpers/test-app.ts';

const secret = new TextEncoder().encode(TEST_JWT_SECRET);

describe('POST /v1/auth/signup', () => {
  test.each([
    ['missing body', undefined, 400, 'invalid_request'],
    ['not an object', [], 400, 'invalid_request'],
    ['password too short', { email: 'a@shop.example', password: 'short' }, 400, 'invalid_request'],
    ['email not an address', { email: 'not-an-email', password: 'long enough pw' }, 400, 'invalid_request'],
    ['email wrong type', { email: 42, password: 'long enough pw' }, 400, 'invalid_request'],
  ])('%s', async (_name, body, status, code) => {
    using app = testApp();
    const res = await app.request('POST', '/v1/auth/signup', { body });
    expect(res.status).toBe(status);
    expect(res.json.error.code).toBe(code);
    expect(typeof res.json.error.message).toBe('string');
  });

  test('creates a free account with a pk_ key and a working token', async () => {
    using app = testApp();
    const res = await app.request('POST', '/v1/auth/signup', {
      body: { email: ' Owner@Shop.Example ', password: 'correct horse battery' },
    });
    expect(res.status).toBe(201);
    expect(res.json.account).toMatchObject({ email: 'owner@shop.example', plan: 'free' });
    expect(res.json.account.apiKey).toMatch(/^pk_[0-9A-Za-z]{24,}$/);
    expect(Date.parse(res.json.expiresAt)).toBeGreaterThan(Date.now() + 6 * 24 * 3600 * 1000);
    expect(JSON.stringify(res.json)).not.toContain('password');
    const me = await app.request('GET', '/v1/account', { token: res.json.token });
    expect(me.status).toBe(200);
    expect(me.json.account.id).toBe(res.json.account.id);
  });

  test('a plan in the body is ignored: new accounts start on free', async () => {
    using app = testApp();
    const res = await app.request('POST', '/v1/auth/signup', {
      body: { email: 'a@shop.example', password: 'long enough pw', plan: 'extra' },
    });
    expect(res.status).toBe(201);
    expect(res.json.account.plan).toBe('free');
  });

  test('the same email (any case) is 409 email_taken', async () => {
    using app = testApp();
    await app.signup('owner@shop.example');
    const res = await app.request('POST', '/v1/auth/signup', {
      body: { email: 'OWNER@shop.example', password: 'another long password' },
    });
    expect(res.status).toBe(409);
    expect(res.json.error.code).toBe('email_taken');
  });

  test('disabled sign-up is 403 signup_disabled and creates nothing', async () => {
    using app = testApp({ flags: { 'disable-signup': true } });
    const res = await app.request('POST', '/v1/auth/signup', {
      body: { email: 'a@shop.example', password: 'long enough pw' },
    });
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe('signup_disabled');
    expect(await app.accounts.count()).toBe(0);
  });

  test('passwords are stored as argon2id hashes', async () => {
    using app = testApp();
    const { email, password } = await app.signup();
    const row = await app.accounts.findByEmail(email);
    expect(row?.passwordHash.startsWith('$argon2id$')).toBe(true);
    expect(row?.passwordHash).not.toContain(password);
  });
});

describe('POST /v1/auth/login', () => {
  test('right credentials → 200 with token; wrong password and unknown email → the same 401', async () => {
    using app = testApp();
    const { email, password } = await app.signup();
    const ok = await app.request('POST', '/v1/auth/login', { body: { email, password } });
    expect(ok.status).toBe(200);
    expect(ok.json.account.email).toBe(email);
    const wrong = await app.request('POST', '/v1/auth/login', { body: { email, password: 'wrong password!' } });
    const unknown = await app.request('POST', '/v1/auth/login', {
      body: { email: 'nobody@shop.example', password: 'wrong password!' },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.json).toEqual(unknown.json);
    expect(wrong.json.error.code).toBe('invalid_credentials');
  });

  test('repeated failures per email are rate limited with Retry-After, even with the right password', async () => {
    using app = testApp();
    const { email, password } = await app.signup();
    for (let i = 0; i < 10; i++) {
      const res = await app.request('POST', '/v1/auth/login', { body: { email, password: 'wrong password!' } });
      expect(res.status).toBe(401);
    }
    const limited = await app.request('POST', '/v1/auth/login', { body: { email, password } });
    expect(limited.status).toBe(429);
    expect(limited.json.error.code).toBe('rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  test('a burst of parallel guesses is limited too (attempts are counted before the slow check)', async () => {
    using app = testApp();
    const { email } = await app.signup();
    // A guess the bounded password queue turns away (503 busy, nothing counted) is sent
    // again once the event loop has turned (in-process, a 503 alone would never yield to
    // the hashes that free a place).
    const results = await Promise.all(
      Array.from({ length: 30 }, async () => {
        for (;;) {
          const res = await app.request('POST', '/v1/auth/login', { body: { email, password: 'wrong password!' } });
          if (res.json?.error?.code !== 'busy') return res;
          await new Promise((resolve) => setImmediate(resolve));
        }
      }),
    );
    expect(results.filter((r) => r.status === 401)).toHaveLength(10);
    expect(results.filter((r) => r.status === 429)).toHaveLength(20);
  });

  test('successful sign-ins from one address do not use up its failure allowance', async () => {
    // Successful sign-ins have limits of their own (test/api/abuse-limits.test.ts): off here.
    using app = testApp({ flags: { 'rate-signin-per-minute': 0, 'rate-signin-address-per-minute': 0 } });
    const { email, password } = await app.signup();
    for (let i = 0; i < 12; i++)
      expect((await app.request('POST', '/v1/auth/login', { body: { email, password } })).status).toBe(200);
  });

  test('the limit lifts when the window has passed', async () => {
    let now = new Date('2026-03-01T00:00:00Z');
    using app = testApp({ now: () => now });
    const { email, password } = await app.signup();
    for (let i = 0; i < 10; i++)
      await app.request('POST', '/v1/auth/login', { body: { email, password: 'wrong password!' } });
    expect((await app.request('POST', '/v1/auth/login', { body: { email, password } })).status).toBe(429);
    now = new Date(now.getTime() + 15 * 60 * 1000 + 1000);
    expect((await app.request('POST', '/v1/auth/login', { body: { email, password } })).status).toBe(200);
  });
});

describe('owner routes refuse bad tokens', () => {
  const routes: [string, string][] = [
    ['GET', '/v1/account'],
    ['POST', '/v1/account/rotate-api-key'],
    ['GET', '/v1/domains'],
    ['POST', '/v1/domains'],
    ['DELETE', '/v1/domains'],
  ];

  async function tokens(app: ReturnType<typeof testApp>) {
    const { id } = await app.signup();
    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({ sub: id })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(now - 100)
      .setExpirationTime(now - 10)
      .sign(secret);
    const otherSecret = await new SignJWT({ sub: id })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-another-secret-another'));
    const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const algNone = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: id, exp: now + 3600 })}.`;
    const unknownAccount = await new SignJWT({ sub: 'acct_doesnotexist' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(secret);
    return {
      missing: undefined,
      malformed: 'Bearer not-a-jwt',
      'wrong scheme': `Basic ${Buffer.from('a:b').toString('base64')}`,
      expired: `Bearer ${expired}`,
      'other secret': `Bearer ${otherSecret}`,
      'alg none': `Bearer ${algNone}`,
      'unknown account': `Bearer ${unknownAccount}`,
    };
  }

  test('a bad token is refused before the body is validated (no schema details for strangers)', async () => {
    using app = testApp();
    for (const [method, path] of [
      ['POST', '/v1/domains'],
      ['DELETE', '/v1/domains'],
      ['PUT', '/v1/widget-config/bmi'],
      ['PUT', '/v1/widget-config/BAD'],
    ] as const) {
      const res = await app.request(method, path, {
        headers: { authorization: 'Bearer forged.token.value' },
        body: { nonsense: [1, 2, 3] },
      });
      expect({ path, status: res.status, code: res.json.error.code, details: res.json.error.details }).toEqual({
        path,
        status: 401,
        code: 'unauthorized',
        details: undefined,
      });
    }
  });

  test('the Bearer scheme is case-insensitive', async () => {
    using app = testApp();
    const { token } = await app.signup();
    expect((await app.request('GET', '/v1/account', { headers: { authorization: `bearer ${token}` } })).status).toBe(
      200,
    );
  });

  test.each(routes)('%s %s → 401 unauthorized for every bad credential', async (method, path) => {
    using app = testApp();
    for (const [name, header] of Object.entries(await tokens(app))) {
      const res = await app.request(method, path, {
        headers: header ? { authorization: header } : {},
        body: method === 'GET' ? undefined : { domain: 'https://shop.example' },
      });
      expect({ name, status: res.status, code: res.json?.error?.code }).toEqual({
        name,
        status: 401,
        code: 'unauthorized',
      });
    }
  });
});

describe('GET /v1/account and key rotation', () => {
  test('shows plan, usage and the public URL', async () => {
    using app = testApp({ flags: { 'public-url': 'https://calc.shop.example/' } });
    const { token } = await app.signup();
    const res = await app.request('GET', '/v1/account', { token });
    expect(res.json.usage).toEqual({
      period: new Date().toISOString().slice(0, 7),
      used: 0,
      limit: 1000,
      percent: 0,
      runsOutOn: null,
    });
    expect(res.json.publicUrl).toBe('https://calc.shop.example');
  });

  test('a plan change in the store is effective on the next request, whatever the token says', async () => {
    using app = testApp();
    const { token, id } = await app.signup();
    expect((await app.request('GET', '/v1/account', { token })).json.account.plan).toBe('free');
    await app.accounts.setPlan(id, 'extra');
    const after = await app.request('GET', '/v1/account', { token });
    expect(after.json.account.plan).toBe('extra');
    expect(after.json.usage.limit).toBe(1_000_000);
  });

  test('rotating the key stops the old key at once', async () => {
    using app = testApp();
    const { token, apiKey } = await app.signup();
    await app.request('POST', '/v1/domains', { token, body: { domain: 'https://shop.example' } });
    const body = (key: string) => ({ apiKey: key, domain: 'https://shop.example', calcId: 'bmi' });
    expect((await app.request('POST', '/v1/widget/verify', { body: body(apiKey) })).status).toBe(200);
    const rotated = await app.request('POST', '/v1/account/rotate-api-key', { token });
    expect(rotated.status).toBe(200);
    const newKey = rotated.json.account.apiKey;
    expect(newKey).not.toBe(apiKey);
    expect(newKey).toMatch(/^pk_/);
    expect((await app.request('POST', '/v1/widget/verify', { body: body(apiKey) })).json.error.code).toBe(
      'invalid_api_key',
    );
    expect((await app.request('POST', '/v1/widget/verify', { body: body(newKey) })).status).toBe(200);
  });
});
