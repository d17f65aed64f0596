import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { startTarget, type TargetServer } from '../helpers/webhook-target.ts';
import { testApp, type TestApp } from '../helpers/test-app.ts';

// Every test hashes or checks passwords (argon2id, slow on purpose): a loaded machine
// must not turn that into a failure.
setDefaultTimeout(30_000);

const ALLOW = { CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.2/32' };
const ORIGIN = 'https://shop.example';
const NEW_PASSWORD = 'a brand new password';

const me = async (app: TestApp, token: string) => (await app.request('GET', '/v1/account', { token })).status;
const login = (app: TestApp, email: string, password: string) =>
  app.request('POST', '/v1/auth/login', { body: { email, password } });

/** Two sessions of one account (two devices) and the account itself. */
async function twoSessions(app: TestApp) {
  const owner = await app.signup();
  const second = (await login(app, owner.email, owner.password)).json.token as string;
  return { ...owner, second };
}

describe('tokens carry iat', () => {
  test('a session token holds sub, iat and exp', async () => {
    using app = testApp();
    const { token, id } = await app.signup();
    const claims = JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString());
    expect(claims.sub).toBe(id);
    expect(typeof claims.iat).toBe('number');
    expect(claims.exp).toBeGreaterThan(claims.iat);
  });
});

describe('POST /v1/account/password', () => {
  test('the right current password: a new token; every other token stops; only the new password signs in', async () => {
    using app = testApp();
    const owner = await twoSessions(app);
    const res = await app.request('POST', '/v1/account/password', {
      token: owner.token,
      body: { currentPassword: owner.password, newPassword: NEW_PASSWORD },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.json).sort()).toEqual(['expiresAt', 'token']);
    expect(await me(app, res.json.token)).toBe(200);
    expect(await me(app, owner.token)).toBe(401);
    expect(await me(app, owner.second)).toBe(401);
    expect((await login(app, owner.email, owner.password)).status).toBe(401);
    expect((await login(app, owner.email, NEW_PASSWORD)).status).toBe(200);
  });

  test('a wrong current password is 401 invalid_credentials and changes nothing', async () => {
    using app = testApp();
    const owner = await twoSessions(app);
    const res = await app.request('POST', '/v1/account/password', {
      token: owner.token,
      body: { currentPassword: 'not the password', newPassword: NEW_PASSWORD },
    });
    expect(res.status).toBe(401);
    expect(res.json.error.code).toBe('invalid_credentials');
    expect(await me(app, owner.token)).toBe(200);
    expect(await me(app, owner.second)).toBe(200);
    expect((await login(app, owner.email, owner.password)).status).toBe(200);
  });

  test.each([
    ['new password too short', { currentPassword: 'correct horse battery', newPassword: 'short' }],
    ['missing current password', { newPassword: NEW_PASSWORD }],
    ['wrong types', { currentPassword: 1, newPassword: NEW_PASSWORD }],
  ])('%s → 400 and nothing changes', async (_name, body) => {
    using app = testApp();
    const owner = await app.signup();
    const res = await app.request('POST', '/v1/account/password', { token: owner.token, body });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('invalid_request');
    expect(await me(app, owner.token)).toBe(200);
  });

  test('guessing the current password with a stolen token is limited like sign-ins', async () => {
    using app = testApp();
    const owner = await app.signup();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await app.request('POST', '/v1/account/password', {
        token: owner.token,
        body: { currentPassword: `guess number ${i}`, newPassword: NEW_PASSWORD },
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
    // Eleven argon2 checks.
  }, 30_000);
});

describe('POST /v1/auth/logout', () => {
  test('every token issued until now stops working; a sign-in afterwards works, even in the same millisecond', async () => {
    // A frozen clock: logout and the next sign-in happen in the same millisecond.
    const frozen = new Date('2026-03-03T10:00:00.000Z');
    using app = testApp({ now: () => frozen });
    const owner = await twoSessions(app);
    const out = await app.request('POST', '/v1/auth/logout', { token: owner.token });
    expect(out.status).toBe(200);
    expect(out.json).toEqual({ ok: true });
    expect(await me(app, owner.token)).toBe(401);
    expect(await me(app, owner.second)).toBe(401);
    expect((await app.request('POST', '/v1/auth/logout', { token: owner.second })).status).toBe(401);
    const again = await login(app, owner.email, owner.password);
    expect(again.status).toBe(200);
    expect(await me(app, again.json.token)).toBe(200);
  });

  test("one account's logout leaves other accounts signed in", async () => {
    using app = testApp();
    const first = await app.signup();
    const second = await app.signup();
    await app.request('POST', '/v1/auth/logout', { token: first.token });
    expect(await me(app, second.token)).toBe(200);
  });

  test('without a token: 401', async () => {
    using app = testApp();
    expect((await app.request('POST', '/v1/auth/logout')).status).toBe(401);
  });
});

describe('DELETE /v1/account', () => {
  let target: TargetServer;
  beforeAll(() => {
    target = startTarget('127.0.0.2', () => Response.json({ weightKg: 80 }));
  });
  afterAll(() => target.stop());

  /** Every table with an account column, and how many rows of `accountId` each holds. */
  async function rowsOf(app: TestApp, accountId: string): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const { name, columns } of await app.tables()) {
      // Failed sign-ins (PostgreSQL only) are keyed by address and email, not by account,
      // and expire with their window.
      if (name === 'login_failures') continue;
      const column = name === 'accounts' ? 'id' : columns.includes('account_id') ? 'account_id' : null;
      // A table that holds account data under another name would escape this check: fail.
      expect({ table: name, column }).not.toEqual({ table: name, column: null });
      counts[name] = await app.count(`"${name}" WHERE "${column}" = ?`, accountId);
    }
    return counts;
  }

  /** An Extra account using every feature, so that every table holds rows of it. */
  async function busyAccount(app: TestApp) {
    const owner = await app.signup();
    await app.accounts.setPlan(owner.id, 'extra');
    await app.request('POST', '/v1/domains', { token: owner.token, body: { domain: ORIGIN } });
    await app.request('POST', '/v1/widget/register-domain', {
      body: { apiKey: owner.apiKey, domain: 'https://blog.shop.example' },
    });
    const saved = await app.request('PUT', '/v1/widget-config/bmi', {
      token: owner.token,
      body: { config: { webhook: { url: target.url('/prefill'), headers: { Authorization: 'Bearer s3cr3t' } } } },
    });
    expect(saved.status).toBe(200);
    const loaded = await app.request('POST', '/v1/widget/load', {
      body: { apiKey: owner.apiKey, domain: ORIGIN, calcId: 'bmi' },
    });
    expect(loaded.json.values).toEqual({ weightKg: 80 });
    // The page reports what its visitor did: a funnel row.
    const reported = await app.request('POST', '/v1/widget/events', {
      body: { apiKey: owner.apiKey, domain: ORIGIN, calcId: 'bmi', events: ['view', 'start'] },
    });
    expect(reported.status).toBe(204);
    // An owner-built calculator, published: its draft and its version rows.
    const created = await app.request('POST', '/v1/account/calculators', { token: owner.token, body: { from: 'bmi' } });
    expect(created.status).toBe(201);
    const published = await app.request('POST', `/v1/account/calculators/${created.json.id}/publish`, {
      token: owner.token,
    });
    expect(published.status).toBe(200);
    // A refused call, and pulls over a cap of one a second until one is skipped.
    const refused = await app.request('POST', '/v1/widget/load', {
      body: { apiKey: owner.apiKey, domain: 'https://elsewhere.example', calcId: 'bmi' },
    });
    expect(refused.status).toBe(403);
    await app.request('PUT', '/v1/account/limits', { token: owner.token, body: { pullsPerSecond: 1 } });
    const load = () =>
      app.request('POST', '/v1/widget/load', { body: { apiKey: owner.apiKey, domain: ORIGIN, calcId: 'bmi' } });
    while (Object.keys((await load()).json.values).length > 0);
    // A results endpoint with a delivered test event: its queue row and its log entry.
    const endpoint = await app.request('PUT', '/v1/account/results-endpoint', {
      token: owner.token,
      body: { url: target.url('/events') },
    });
    expect(endpoint.status).toBe(201);
    const tested = await app.request('POST', '/v1/account/results-endpoint/test', { token: owner.token });
    expect(tested.status).toBe(200);
    // Results on for bmi, and a visitor's result: its row, its config, its month's count.
    const results = await app.request('PUT', '/v1/widget-config/bmi', {
      token: owner.token,
      body: { config: { results: { enabled: true } } },
    });
    expect(results.status).toBe(200);
    const submitted = await app.request('POST', '/v1/widget/submit', {
      body: { apiKey: owner.apiKey, domain: ORIGIN, calcId: 'bmi', inputs: { weight: 80, height: 180 } },
    });
    expect(submitted.status).toBe(202);
    await app.flush();
    return owner;
  }

  test('removes every row of the account in every table; its key and tokens stop at once; others stay', async () => {
    using app = testApp({ env: ALLOW });
    const owner = await busyAccount(app);
    const other = await busyAccount(app);
    const before = await rowsOf(app, owner.id);
    // Every table holds something of this account, so the check below means something.
    for (const [table, n] of Object.entries(before)) expect({ table, n: n > 0 }).toEqual({ table, n: true });
    const second = (await login(app, owner.email, owner.password)).json.token;

    const res = await app.request('DELETE', '/v1/account', { token: owner.token, body: { password: owner.password } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ok: true });
    expect(Object.values(await rowsOf(app, owner.id)).every((n) => n === 0)).toBe(true);
    expect(await rowsOf(app, other.id)).toEqual(before);
    expect(await me(app, owner.token)).toBe(401);
    expect(await me(app, second)).toBe(401);
    const widget = await app.request('POST', '/v1/widget/verify', {
      body: { apiKey: owner.apiKey, domain: ORIGIN, calcId: 'bmi' },
    });
    expect(widget.json.error.code).toBe('invalid_api_key');
    expect((await login(app, owner.email, owner.password)).status).toBe(401);
    // Loads counted in memory before the deletion are not written back by a later flush.
    await app.flush();
    expect(Object.values(await rowsOf(app, owner.id)).every((n) => n === 0)).toBe(true);
    // The email is free again.
    expect(
      (await app.request('POST', '/v1/auth/signup', { body: { email: owner.email, password: 'another long one' } }))
        .status,
    ).toBe(201);
    // Two busy accounts and their sign-ins: several argon2 runs, past bun's 5 s default on a busy machine.
  }, 30_000);

  test('a wrong password is 401 and deletes nothing', async () => {
    using app = testApp({ env: ALLOW });
    const owner = await busyAccount(app);
    const before = await rowsOf(app, owner.id);
    const res = await app.request('DELETE', '/v1/account', {
      token: owner.token,
      body: { password: 'not the password' },
    });
    expect(res.status).toBe(401);
    expect(res.json.error.code).toBe('invalid_credentials');
    expect(await rowsOf(app, owner.id)).toEqual(before);
    expect(await me(app, owner.token)).toBe(200);
  });

  test('without a password: 400; without a token: 401', async () => {
    using app = testApp();
    const owner = await app.signup();
    expect((await app.request('DELETE', '/v1/account', { token: owner.token, body: {} })).status).toBe(400);
    expect((await app.request('DELETE', '/v1/account', { body: { password: owner.password } })).status).toBe(401);
    expect(await me(app, owner.token)).toBe(200);
  });
});
