/**
 * The signing secret as a credential, from the CLI: with a session older than the server's
 * freshness window (here every session: --fresh-auth-seconds 0), showing or replacing the
 * secret asks for the password on a terminal, or reads it with --password-stdin.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { jsonOf, startCliSession, TEST_PASSWORD, type CliSession } from '../helpers/cli-session.ts';
import { runOnTerminal } from '../helpers/pty.ts';

// Every test starts processes and checks passwords; a loaded machine must not fail them.
setDefaultTimeout(60_000);

const SECRET = /^whsec_[0-9A-Za-z]{32}$/;

interface SecretBody {
  signingSecret: string | null;
  last4: string;
  previousValidUntil: string | null;
}

let session: CliSession;
beforeAll(async () => {
  session = await startCliSession({ serveArgs: ['--fresh-auth-seconds', '0'] });
}, 60_000);
afterAll(() => session[Symbol.asyncDispose]());

const onTerminal = (args: string[], env: Record<string, string>, password: string) =>
  runOnTerminal([...session.command, ...args], [{ waitFor: 'Password: ', type: `${password}\r` }], {
    ...env,
    CALC_API_URL: session.url,
    NO_COLOR: '1',
  });

/** The secrets that sign now, as the server's GET shows them to a fresh sign-in. */
async function secretOf(owner: { email: string }): Promise<string> {
  const revealed = await fetch(`${session.url}/v1/account/signing-secret/reveal`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${await tokenOf(owner.email)}` },
    body: JSON.stringify({ password: TEST_PASSWORD }),
  });
  return ((await revealed.json()) as { signingSecret: string }).signingSecret;
}

async function tokenOf(email: string): Promise<string> {
  const login = await fetch(`${session.url}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: TEST_PASSWORD }),
  });
  return ((await login.json()) as { token: string }).token;
}

describe('calc keys signing-secret with an older session', () => {
  test('without a terminal or --password-stdin: exit 1, password_required, and no secret', async () => {
    const owner = await session.signedIn();
    const refused = await session.calc(['keys', 'signing-secret', '--json'], { env: owner.env });
    expect(refused.exitCode).toBe(1);
    expect(jsonOf<{ error: { code: string } }>(refused.stderr).error.code).toBe('password_required');
    expect(refused.stdout + refused.stderr).toContain('--password-stdin');
    expect(refused.stdout + refused.stderr).not.toContain('whsec_');
  });

  test('--password-stdin reveals it; a wrong password is refused', async () => {
    const owner = await session.signedIn();
    const shown = await session.calc(['keys', 'signing-secret', '--password-stdin', '--json'], {
      env: owner.env,
      stdin: `${TEST_PASSWORD}\n`,
    });
    expect(shown.exitCode).toBe(0);
    const body = jsonOf<SecretBody>(shown.stdout);
    expect(body.signingSecret).toMatch(SECRET);
    expect(body.signingSecret).toBe(await secretOf(owner));
    const wrong = await session.calc(['keys', 'signing-secret', '--password-stdin'], {
      env: owner.env,
      stdin: 'not the password\n',
    });
    expect(wrong.exitCode).toBe(1);
    expect(wrong.stderr).toContain('The password is wrong.');
  });

  test('on a terminal it asks for the password, hidden, then shows the secret', async () => {
    const owner = await session.signedIn();
    const run = await onTerminal(['keys', 'signing-secret'], owner.env, TEST_PASSWORD);
    expect(run.exitCode).toBe(0);
    expect(run.screen).toContain('Password: ');
    expect(run.screen).not.toContain(TEST_PASSWORD);
    expect(run.screen).toContain(await secretOf(owner));
  });

  test('--rotate --now asks for the password and ends the previous secret at once', async () => {
    const owner = await session.signedIn();
    const before = await secretOf(owner);
    const run = await onTerminal(['keys', 'signing-secret', '--rotate', '--now', '--yes'], owner.env, TEST_PASSWORD);
    expect(run.exitCode).toBe(0);
    expect(run.screen).toMatch(/Previous secret:\s+none/);
    const after = await secretOf(owner);
    expect(after).not.toBe(before);
    expect(run.screen).toContain(after);
    // Scripts: --password-stdin; without --now the previous one stays for 24 hours.
    const piped = await session.calc(['keys', 'signing-secret', '--rotate', '--yes', '--password-stdin', '--json'], {
      env: owner.env,
      stdin: `${TEST_PASSWORD}\n`,
    });
    expect(piped.exitCode).toBe(0);
    expect(jsonOf<SecretBody>(piped.stdout).previousValidUntil).not.toBeNull();
  });

  test('calc context mint reads the secret with --password-stdin', async () => {
    const owner = await session.signedIn();
    const minted = await session.calc(['context', 'mint', '--visitor', 'cust_42', '--password-stdin', '--json'], {
      env: owner.env,
      stdin: `${TEST_PASSWORD}\n`,
    });
    expect(minted.exitCode).toBe(0);
    const { token } = jsonOf<{ token: string }>(minted.stdout);
    const [header, claims, signature] = token.split('.');
    const expected = new Bun.CryptoHasher('sha256', await secretOf(owner))
      .update(`${header}.${claims}`)
      .digest('base64url');
    expect(signature).toBe(expected);
  });
});

describe('rotating the signing secret with the credentials', () => {
  test('calc logout --rotate-signing-secret: signed out everywhere, and the secret replaced at once', async () => {
    const owner = await session.signedIn();
    const before = await secretOf(owner);
    const other = await tokenOf(owner.email);
    const refused = await session.calc(['logout', '--rotate-signing-secret'], { env: owner.env });
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain('--password-stdin');
    const done = await session.calc(['logout', '--rotate-signing-secret', '--password-stdin'], {
      env: owner.env,
      stdin: `${TEST_PASSWORD}\n`,
    });
    expect(done.exitCode).toBe(0);
    expect(done.stdout).toContain('signing secret was replaced');
    expect(existsSync(join(owner.configDir, 'credentials.json'))).toBe(false);
    const stale = await fetch(`${session.url}/v1/account`, { headers: { authorization: `Bearer ${other}` } });
    expect(stale.status).toBe(401);
    expect(await secretOf(owner)).not.toBe(before);
  });

  test('calc password --rotate-signing-secret replaces the secret along with the password', async () => {
    const owner = await session.signedIn();
    const before = await secretOf(owner);
    const changed = await session.calc(['password', '--password-stdin', '--rotate-signing-secret', '--json'], {
      env: owner.env,
      stdin: `${TEST_PASSWORD}\n${TEST_PASSWORD}\n`,
    });
    expect(changed.exitCode).toBe(0);
    expect(await secretOf(owner)).not.toBe(before);
  });
});
