import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { createApp } from '../../src/app.ts';
import { loadServerConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { manualClock } from '../helpers/clock.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { testApp, type TestApp } from '../helpers/test-app.ts';
import { testDatabase } from '../helpers/test-database.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const SECRET_FORMAT = /^whsec_[0-9A-Za-z]{32}$/;

describe('GET/POST /v1/account/signing-secret', () => {
  test('every account has a whsec_ secret from sign-up on; reading it again gives the same one, never cached', async () => {
    const clock = manualClock();
    using app = testApp({ now: clock.now });
    const owner = await app.signup();
    // Made with the account, not on first read.
    expect(await app.count('signing_secrets WHERE account_id = ?', owner.id)).toBe(1);
    const first = await app.request('GET', '/v1/account/signing-secret', { token: owner.token });
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(first.json).toEqual({
      signingSecret: expect.stringMatching(SECRET_FORMAT),
      last4: first.json.signingSecret.slice(-4),
      createdAt: clock.now().toISOString(),
      previousValidUntil: null,
    });
    const again = await app.request('GET', '/v1/account/signing-secret', { token: owner.token });
    expect(again.json).toEqual(first.json);
    const other = await app.signup();
    const theirs = await app.request('GET', '/v1/account/signing-secret', { token: other.token });
    expect(theirs.json.signingSecret).not.toBe(first.json.signingSecret);
  });

  test('a rotation gives a new secret; the previous one verifies for exactly 24 hours', async () => {
    const clock = manualClock();
    using app = testApp({ now: clock.now });
    const owner = await app.signup();
    const before = (await app.request('GET', '/v1/account/signing-secret', { token: owner.token })).json;
    clock.advance(60_000);
    const rotated = await app.request('POST', '/v1/account/signing-secret', { token: owner.token });
    expect(rotated.status).toBe(200);
    expect(rotated.headers.get('cache-control')).toBe('no-store');
    expect(rotated.json.signingSecret).toMatch(SECRET_FORMAT);
    expect(rotated.json.signingSecret).not.toBe(before.signingSecret);
    expect(rotated.json.createdAt).toBe(clock.now().toISOString());
    expect(rotated.json.previousValidUntil).toBe(new Date(clock.now().getTime() + DAY_MS).toISOString());
    expect(await app.signingSecrets.active(owner.id)).toEqual([rotated.json.signingSecret, before.signingSecret]);
    expect((await app.request('GET', '/v1/account/signing-secret', { token: owner.token })).json).toEqual(rotated.json);

    clock.advance(DAY_MS - 1);
    expect(await app.signingSecrets.active(owner.id)).toHaveLength(2);
    clock.advance(1);
    expect(await app.signingSecrets.active(owner.id)).toEqual([rotated.json.signingSecret]);
    // A day later the session is no longer fresh: the answer shows the last four characters only.
    const after = await app.request('GET', '/v1/account/signing-secret', { token: owner.token });
    expect(after.json).toEqual({ ...rotated.json, signingSecret: null, previousValidUntil: null });
  });

  test('rotating twice within the overlap keeps only the secret just replaced', async () => {
    const clock = manualClock();
    using app = testApp({ now: clock.now });
    const owner = await app.signup();
    const first = (await app.request('POST', '/v1/account/signing-secret', { token: owner.token })).json;
    clock.advance(1000);
    const second = (await app.request('POST', '/v1/account/signing-secret', { token: owner.token })).json;
    expect(await app.signingSecrets.active(owner.id)).toEqual([second.signingSecret, first.signingSecret]);
    expect(second.previousValidUntil).toBe(new Date(clock.now().getTime() + DAY_MS).toISOString());
  });

  test('concurrent rotations each end with a stored secret; the last answer is what GET shows', async () => {
    using app = testApp();
    const owner = await app.signup();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => app.request('POST', '/v1/account/signing-secret', { token: owner.token })),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    const shown = (await app.request('GET', '/v1/account/signing-secret', { token: owner.token })).json;
    expect(answers.map((a) => a.json.signingSecret)).toContain(shown.signingSecret);
  });

  test('without a valid token → 401 and no secret', async () => {
    using app = testApp();
    for (const method of ['GET', 'POST']) {
      const res = await app.request(method, '/v1/account/signing-secret', { token: 'not-a-token' });
      expect(res.status).toBe(401);
      expect(res.json.error.code).toBe('unauthorized');
      expect(res.text).not.toContain('whsec_');
    }
  });

  test('stored sealed, never in clear; never in a log line', async () => {
    using app = testApp();
    const owner = await app.signup();
    await app.request('POST', '/v1/account/signing-secret', { token: owner.token });
    const { signingSecret } = (await app.request('GET', '/v1/account/signing-secret', { token: owner.token })).json;
    const [row] = (await app.sql('SELECT * FROM signing_secrets')) as { secret: string; previous_secret: string }[];
    if (!row) throw new Error('no signing secret stored');
    expect(row.secret).toStartWith('v1.');
    expect(JSON.stringify(row)).not.toContain('whsec_');
    // A sealed secret copied into another account's row does not open there.
    const other = await app.signup();
    await app.sql('UPDATE signing_secrets SET secret = ? WHERE account_id = ?', row.secret, other.id);
    expect(await app.signingSecrets.active(other.id)).not.toContain(signingSecret);
    await app.flush();
    expect(app.logs.join('\n')).not.toContain(signingSecret);
  });

  test('a secret that no longer opens (a replaced webhook-key) counts as gone and is replaced', async () => {
    using app = testApp();
    const owner = await app.signup();
    const other = await app.signup();
    // Sealed for another account: it cannot open under this one, as with another key.
    const [foreign] = await app.sql('SELECT secret FROM signing_secrets WHERE account_id = ?', other.id);
    await app.sql('UPDATE signing_secrets SET secret = ? WHERE account_id = ?', foreign?.secret, owner.id);
    const replaced = await app.request('GET', '/v1/account/signing-secret', { token: owner.token });
    expect(replaced.status).toBe(200);
    expect(replaced.json.signingSecret).toMatch(SECRET_FORMAT);
    expect(replaced.json.previousValidUntil).toBeNull();
    expect(await app.signingSecrets.active(owner.id)).toEqual([replaced.json.signingSecret]);
    // And the other account's own secret is untouched.
    expect(await app.signingSecrets.active(other.id)).toHaveLength(1);
  });

  test('deleting an account (DELETE /v1/account) deletes its signing secret', async () => {
    using app = testApp();
    const owner = await app.signup();
    const kept = await app.signup();
    const deleted = await app.request('DELETE', '/v1/account', {
      token: owner.token,
      body: { password: owner.password },
    });
    expect(deleted.status).toBe(200);
    const rows = await app.sql('SELECT account_id FROM signing_secrets');
    expect(rows).toEqual([{ account_id: kept.id }]);
  });
});

test('accounts made before signing secrets existed get one when the server starts', async () => {
  using dir = tempDir();
  const config = loadServerConfig({ data: join(dir.path, 'data') }, {});
  const database = testDatabase(config.dataDir);
  try {
    for (const id of ['acct_old1', 'acct_old2'])
      await database.sql(
        "INSERT INTO accounts (id, email, password_hash, plan, api_key, created_at) VALUES (?, ?, 'h', 'free', ?, '2026-01-01T00:00:00.000Z')",
        id,
        `${id}@shop.example`,
        `pk_${id}`,
      );
    const app = createApp({
      config,
      database: database.backend,
      jwtSecret: 'test-secret-that-is-long-enough-0123456789',
      headerKey: new Uint8Array(32).fill(3),
      logger: createLogger(() => {}),
    });
    await app.ready;
    const rows = await database.sql('SELECT account_id FROM signing_secrets ORDER BY account_id');
    expect(rows).toEqual([{ account_id: 'acct_old1' }, { account_id: 'acct_old2' }]);
    const [a] = await app.signingSecrets.active('acct_old1');
    const [b] = await app.signingSecrets.active('acct_old2');
    expect(a).toMatch(SECRET_FORMAT);
    expect(b).toMatch(SECRET_FORMAT);
    expect(a).not.toBe(b);
  } finally {
    database.close();
  }
});

describe('the signing secret is a credential of its own', () => {
  const FRESH_MS = 300_000;
  const get = (app: TestApp, token: string) => app.request('GET', '/v1/account/signing-secret', { token });
  const reveal = (app: TestApp, token: string, password: string) =>
    app.request('POST', '/v1/account/signing-secret/reveal', { token, body: { password } });
  const rotate = (app: TestApp, token: string, body?: unknown) =>
    app.request('POST', '/v1/account/signing-secret', { token, body });

  test('GET answers it whole to a session at most 300 s old, then only its last four characters', async () => {
    const clock = manualClock();
    using app = testApp({ now: clock.now });
    const owner = await app.signup();
    const [secret] = await app.signingSecrets.active(owner.id);
    clock.advance(FRESH_MS);
    expect((await get(app, owner.token)).json.signingSecret).toBe(secret);
    clock.advance(1);
    const stale = await get(app, owner.token);
    expect(stale.status).toBe(200);
    expect(stale.json).toEqual({
      signingSecret: null,
      last4: secret?.slice(-4),
      createdAt: expect.any(String),
      previousValidUntil: null,
    });
    expect(stale.text).not.toContain(secret ?? 'whsec_');
    // Signing in again makes a fresh session.
    const again = await app.request('POST', '/v1/auth/login', {
      body: { email: owner.email, password: owner.password },
    });
    expect((await get(app, again.json.token)).json.signingSecret).toBe(secret);
  });

  test('--fresh-auth-seconds sets how fresh; 0 asks for the password every time', async () => {
    const clock = manualClock();
    using short = testApp({ now: clock.now, flags: { 'fresh-auth-seconds': 60 } });
    const owner = await short.signup();
    clock.advance(60_000);
    expect((await get(short, owner.token)).json.signingSecret).toMatch(SECRET_FORMAT);
    clock.advance(1);
    expect((await get(short, owner.token)).json.signingSecret).toBeNull();
    using never = testApp({ now: clock.now, env: { CALC_FRESH_AUTH_SECONDS: '0' } });
    const other = await never.signup();
    clock.advance(1);
    expect((await get(never, other.token)).json.signingSecret).toBeNull();
    expect((await rotate(never, other.token)).json.error.code).toBe('password_required');
  });

  test('reveal: the right password answers it to any valid session; a wrong one is 401, counted like a failed sign-in', async () => {
    const clock = manualClock();
    using app = testApp({ now: clock.now });
    const owner = await app.signup();
    const [secret] = await app.signingSecrets.active(owner.id);
    clock.advance(DAY_MS);
    const shown = await reveal(app, owner.token, owner.password);
    expect(shown.status).toBe(200);
    expect(shown.headers.get('cache-control')).toBe('no-store');
    expect(shown.json).toEqual({ ...(await get(app, owner.token)).json, signingSecret: secret });
    for (let i = 0; i < 10; i++) {
      const wrong = await reveal(app, owner.token, 'not the password');
      expect([wrong.status, wrong.json.error.code]).toEqual([401, 'invalid_credentials']);
      expect(wrong.text).not.toContain(secret ?? 'whsec_');
    }
    // Ten wrong passwords from this address: even the right one now waits, as at sign-in.
    const limited = await reveal(app, owner.token, owner.password);
    expect([limited.status, limited.json.error.code]).toEqual([429, 'rate_limited']);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await reveal(app, 'not-a-token', owner.password)).status).toBe(401);
  });

  test('rotation needs a fresh session or the password; `now` ends the previous secret at once', async () => {
    const clock = manualClock();
    using app = testApp({ now: clock.now });
    const owner = await app.signup();
    const [first] = await app.signingSecrets.active(owner.id);
    // Fresh: no password needed.
    const overlapping = await rotate(app, owner.token);
    expect(overlapping.status).toBe(200);
    expect(await app.signingSecrets.active(owner.id)).toEqual([overlapping.json.signingSecret, first]);
    clock.advance(FRESH_MS + 1);
    const refused = await rotate(app, owner.token, { now: true });
    expect([refused.status, refused.json.error.code]).toEqual([403, 'password_required']);
    const wrong = await rotate(app, owner.token, { now: true, password: 'not the password' });
    expect([wrong.status, wrong.json.error.code]).toEqual([401, 'invalid_credentials']);
    expect(await app.signingSecrets.active(owner.id)).toEqual([overlapping.json.signingSecret, first]);
    const now = await rotate(app, owner.token, { now: true, password: owner.password });
    expect(now.status).toBe(200);
    expect(now.json.signingSecret).toMatch(SECRET_FORMAT);
    expect(now.json.previousValidUntil).toBeNull();
    // Neither earlier secret signs or verifies any more.
    expect(await app.signingSecrets.active(owner.id)).toEqual([now.json.signingSecret]);
  });

  test('sign-out everywhere with rotateSigningSecret: the secret is replaced at once, with a fresh session or the password', async () => {
    const clock = manualClock();
    using app = testApp({ now: clock.now });
    const owner = await app.signup();
    const [first] = await app.signingSecrets.active(owner.id);
    clock.advance(FRESH_MS + 1);
    const logout = (token: string, body: unknown) => app.request('POST', '/v1/auth/logout', { token, body });
    const refused = await logout(owner.token, { rotateSigningSecret: true });
    expect([refused.status, refused.json.error.code]).toEqual([403, 'password_required']);
    // Nothing happened: the session still works, the secret is the same.
    expect((await app.request('GET', '/v1/account', { token: owner.token })).status).toBe(200);
    expect(await app.signingSecrets.active(owner.id)).toEqual([first as string]);
    const done = await logout(owner.token, { rotateSigningSecret: true, password: owner.password });
    expect(done.json).toEqual({ ok: true });
    expect((await app.request('GET', '/v1/account', { token: owner.token })).status).toBe(401);
    const active = await app.signingSecrets.active(owner.id);
    expect(active).toHaveLength(1);
    expect(active).not.toContain(first);
    // Fresh: no password needed.
    const fresh = await app.request('POST', '/v1/auth/login', {
      body: { email: owner.email, password: owner.password },
    });
    expect((await logout(fresh.json.token, { rotateSigningSecret: true })).status).toBe(200);
    expect(await app.signingSecrets.active(owner.id)).not.toContain(active[0]);
    // Without the option the secret stays.
    const plain = await app.request('POST', '/v1/auth/login', {
      body: { email: owner.email, password: owner.password },
    });
    const kept = await app.signingSecrets.active(owner.id);
    expect((await logout(plain.json.token, undefined)).status).toBe(200);
    expect(await app.signingSecrets.active(owner.id)).toEqual(kept);
  });

  test('a password change with rotateSigningSecret replaces the secret at once', async () => {
    const clock = manualClock();
    using app = testApp({ now: clock.now });
    const owner = await app.signup();
    const [first] = await app.signingSecrets.active(owner.id);
    clock.advance(DAY_MS);
    const changed = await app.request('POST', '/v1/account/password', {
      token: owner.token,
      body: { currentPassword: owner.password, newPassword: 'a brand new password', rotateSigningSecret: true },
    });
    expect(changed.status).toBe(200);
    const active = await app.signingSecrets.active(owner.id);
    expect(active).toHaveLength(1);
    expect(active).not.toContain(first);
    // The new session is fresh: it reads the new secret whole.
    expect((await get(app, changed.json.token)).json.signingSecret).toBe(active[0]);
  });
});
