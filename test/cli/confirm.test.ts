import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { startCliSession, TEST_PASSWORD, type CliSession } from '../helpers/cli-session.ts';
import { runOnTerminal } from '../helpers/pty.ts';

// Every test starts processes; a loaded machine must not turn that into a failure.
setDefaultTimeout(30_000);

/**
 * The commands that destroy something (keys rotate, keys signing-secret --rotate,
 * domains remove, config remove-webhook, account delete, admin accounts delete) ask on a
 * terminal, act only on "y" (or the typed email), refuse without a terminal unless given
 * --yes, and act at once with --yes or -y.
 */
let session: CliSession;
let owner: Awaited<ReturnType<CliSession['signedIn']>>;
beforeAll(async () => {
  session = await startCliSession();
  owner = await session.signedIn('extra');
}, 30_000);
afterAll(() => session[Symbol.asyncDispose]());

const onTerminal = (args: string[], answer: string, prompt: string) =>
  typeOnTerminal(args, [{ waitFor: prompt, type: `${answer}\r` }]);

const typeOnTerminal = (args: string[], steps: { waitFor: string; type: string }[], env = owner.env) =>
  runOnTerminal([...session.command, ...args], steps, { ...env, CALC_API_URL: session.url, NO_COLOR: '1' });

async function signingSecret(): Promise<string> {
  const shown = await session.calc(['keys', 'signing-secret', '--json'], { env: owner.env });
  return JSON.parse(shown.stdout).signingSecret;
}

/** Whether the account still exists, asked of the data directory (its owner may be signed out). */
async function accountExists(email: string): Promise<boolean> {
  const listed = await session.calc(['admin', 'accounts', 'list', '--data', session.dataDir, '--json']);
  return JSON.parse(listed.stdout).accounts.some((account: { email: string }) => account.email === email);
}

async function apiKey(): Promise<string> {
  const whoami = await session.calc(['whoami', '--json'], { env: owner.env });
  return JSON.parse(whoami.stdout).account.apiKey;
}

async function domains(): Promise<string[]> {
  const listed = await session.calc(['domains', '--json'], { env: owner.env });
  return JSON.parse(listed.stdout).domains.map((d: { domain: string }) => d.domain);
}

describe('confirmation on a terminal', () => {
  test('keys rotate: "n" keeps the key; "y" replaces it', async () => {
    const before = await apiKey();
    const declined = await onTerminal(['keys', 'rotate'], 'n', 'Rotate the API key? [y/N] ');
    expect(declined.exitCode).toBe(1);
    expect(declined.screen).toContain('stops working at once');
    expect(declined.screen).toContain('Cancelled; nothing was changed.');
    expect(await apiKey()).toBe(before);
    const accepted = await onTerminal(['keys', 'rotate'], 'y', 'Rotate the API key? [y/N] ');
    expect(accepted.exitCode).toBe(0);
    const after = await apiKey();
    expect(after).not.toBe(before);
    expect(accepted.screen).toContain(`New API key: ${after}`);
  });

  test('domains remove: asks naming the origin; Enter alone means no', async () => {
    await session.calc(['domains', 'add', 'https://keep.shop.example'], { env: owner.env });
    const declined = await onTerminal(
      ['domains', 'remove', 'https://keep.shop.example'],
      '',
      'Remove https://keep.shop.example? [y/N] ',
    );
    expect(declined.exitCode).toBe(1);
    expect(await domains()).toContain('https://keep.shop.example');
    const accepted = await onTerminal(
      ['domains', 'remove', 'https://keep.shop.example'],
      'yes',
      'Remove https://keep.shop.example? [y/N] ',
    );
    expect(accepted.exitCode).toBe(0);
    expect(await domains()).not.toContain('https://keep.shop.example');
  });

  test('keys signing-secret --rotate: says what stops working; a second rotation warns it cuts off the first', async () => {
    const before = await signingSecret();
    const declined = await onTerminal(['keys', 'signing-secret', '--rotate'], 'n', 'Rotate the signing secret? [y/N] ');
    expect(declined.exitCode).toBe(1);
    expect(declined.screen).toContain('works for 24 more hours only');
    expect(await signingSecret()).toBe(before);
    const accepted = await onTerminal(['keys', 'signing-secret', '--rotate'], 'y', 'Rotate the signing secret? [y/N] ');
    expect(accepted.exitCode).toBe(0);
    const after = await signingSecret();
    expect(after).not.toBe(before);
    expect(accepted.screen).toContain(after);
    const again = await onTerminal(['keys', 'signing-secret', '--rotate'], 'n', 'Rotate the signing secret? [y/N] ');
    expect(again.exitCode).toBe(1);
    expect(again.screen).toMatch(/replaced by the last rotation \(valid until \S+\) stops working at once/);
    expect(await signingSecret()).toBe(after);
  });

  test('config remove-webhook: asks before deleting the saved headers', async () => {
    const declined = await onTerminal(['config', 'remove-webhook', 'bmi'], 'N', 'Remove the webhook of bmi? [y/N] ');
    expect(declined.exitCode).toBe(1);
    expect(declined.screen).toContain('saved header values are deleted');
    const accepted = await onTerminal(['config', 'remove-webhook', 'bmi'], 'y', 'Remove the webhook of bmi? [y/N] ');
    expect(accepted.exitCode).toBe(0);
    expect(accepted.screen).toContain('bmi has no webhook now');
  });

  test('account delete: a different email deletes nothing (code cancelled); the email and password delete it', async () => {
    const doomed = await session.signedIn();
    const prompt = `Type ${doomed.email} to confirm: `;
    const declined = await typeOnTerminal(
      ['account', 'delete', '--json'],
      [{ waitFor: prompt, type: 'someone@else.example\r' }],
      doomed.env,
    );
    expect(declined.exitCode).toBe(1);
    expect(declined.screen).toContain('"code":"cancelled"');
    expect(await accountExists(doomed.email)).toBe(true);
    const accepted = await typeOnTerminal(
      ['account', 'delete'],
      [
        { waitFor: prompt, type: `${doomed.email}\r` },
        { waitFor: 'Password: ', type: `${TEST_PASSWORD}\r` },
      ],
      doomed.env,
    );
    expect(accepted.exitCode).toBe(0);
    expect(accepted.screen).toContain(`Deleted ${doomed.email}.`);
    expect(accepted.screen).not.toContain(TEST_PASSWORD);
    expect(await accountExists(doomed.email)).toBe(false);
  });

  test('admin accounts delete: asks to type the email; only that email deletes', async () => {
    const { email } = await session.createAccount();
    const args = ['admin', 'accounts', 'delete', '--email', email, '--data', session.dataDir];
    const prompt = `Type ${email} to confirm: `;
    const declined = await typeOnTerminal(args, [{ waitFor: prompt, type: 'no\r' }]);
    expect(declined.exitCode).toBe(1);
    expect(declined.screen).toContain('The email typed does not match; nothing was deleted.');
    expect(await accountExists(email)).toBe(true);
    const accepted = await typeOnTerminal(args, [{ waitFor: prompt, type: `${email}\r` }]);
    expect(accepted.exitCode).toBe(0);
    expect(await accountExists(email)).toBe(false);
  });
});

describe('without a terminal', () => {
  // Functions: the owner's email is known only once the session has started.
  test.each([
    ['keys rotate', () => ['keys', 'rotate']],
    ['keys signing-secret --rotate', () => ['keys', 'signing-secret', '--rotate']],
    ['domains remove', () => ['domains', 'remove', 'https://gone.shop.example']],
    ['config remove-webhook', () => ['config', 'remove-webhook', 'bmi']],
    ['account delete', () => ['account', 'delete']],
    ['admin accounts delete', () => ['admin', 'accounts', 'delete', '--email', owner.email, '--data', session.dataDir]],
  ])('%s refuses, names --yes, changes nothing; --json carries a code', async (_name, args) => {
    const [key, secret] = [await apiKey(), await signingSecret()];
    const refused = await session.calc([...args(), '--json'], { env: owner.env });
    expect(refused.exitCode).toBe(1);
    expect(refused.stdout).toBe('');
    const error = JSON.parse(refused.stderr).error;
    expect(error.code).toBe('confirmation_required');
    expect(error.message).toContain('pass --yes to confirm');
    expect([await apiKey(), await signingSecret()]).toEqual([key, secret]);
    expect(await accountExists(owner.email)).toBe(true);
  });

  test('--yes acts at once', async () => {
    const before = await apiKey();
    const rotated = await session.calc(['keys', 'rotate', '--yes', '--json'], { env: owner.env });
    expect(rotated.exitCode).toBe(0);
    expect(JSON.parse(rotated.stdout).account.apiKey).not.toBe(before);
    await session.calc(['domains', 'add', 'https://old.shop.example'], { env: owner.env });
    expect(
      (await session.calc(['domains', 'remove', 'https://old.shop.example', '-y'], { env: owner.env })).exitCode,
    ).toBe(0);
    expect(await domains()).not.toContain('https://old.shop.example');
  });

  test('-y rotates the signing secret and deletes accounts at once', async () => {
    const before = await signingSecret();
    const rotated = await session.calc(['keys', 'signing-secret', '--rotate', '-y', '--json'], { env: owner.env });
    expect(rotated.exitCode).toBe(0);
    expect(JSON.parse(rotated.stdout).signingSecret).not.toBe(before);
    expect(await signingSecret()).toBe(JSON.parse(rotated.stdout).signingSecret);

    const doomed = await session.signedIn();
    const deleted = await session.calc(['account', 'delete', '-y', '--password-stdin'], {
      stdin: `${TEST_PASSWORD}\n`,
      env: doomed.env,
    });
    expect(deleted.exitCode).toBe(0);
    expect(await accountExists(doomed.email)).toBe(false);

    const { email } = await session.createAccount();
    const removed = await session.calc([
      'admin',
      'accounts',
      'delete',
      '--email',
      email,
      '-y',
      '--data',
      session.dataDir,
    ]);
    expect(removed.exitCode).toBe(0);
    expect(await accountExists(email)).toBe(false);
  });
});

describe('--json errors always carry a code', () => {
  test('not signed in, a refused flag, an unknown server answer', async () => {
    const signedOut = await session.calc(['whoami', '--json'], {
      env: { CALC_CONFIG_DIR: `${session.dataDir}/../nobody` },
    });
    expect(signedOut.exitCode).toBe(4);
    expect(JSON.parse(signedOut.stderr).error.code).toBe('not_signed_in');
    const badCurrency = await session.calc(['embed', 'mortgage', '--currency', 'EURO', '--json'], { env: owner.env });
    expect(JSON.parse(badCurrency.stderr).error.code).toBe('invalid_flag');
    const unknown = await session.calc(['embed', 'nope', '--json'], { env: owner.env });
    expect(JSON.parse(unknown.stderr).error.code).toBe('calculator_not_found');
  });

  test('an unknown command: the JSON error shape with code usage, exit 2 as without --json', async () => {
    const plain = await session.calc(['keys', 'bogus']);
    expect(plain.exitCode).toBe(2);
    const json = await session.calc(['keys', 'bogus', '--json']);
    expect(json.exitCode).toBe(2);
    expect(json.stdout).toBe('');
    expect(JSON.parse(json.stderr)).toEqual({
      error: { code: 'usage', message: 'calc has no command "keys bogus"; see calc --help.' },
    });
    const none = await session.calc(['--json']);
    expect([none.exitCode, JSON.parse(none.stderr).error.message]).toEqual([
      2,
      'calc needs a command; see calc --help.',
    ]);
  });
});

describe('calc embed options', () => {
  test('--theme, --units, --locale and --currency become the widget data attributes', async () => {
    const result = await session.calc(
      ['embed', 'mortgage', '--theme', 'dark', '--units', 'imperial', '--locale', 'de-de', '--currency', 'eur'],
      { env: owner.env },
    );
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(
      `data-calc-id="mortgage" data-api-key="${await apiKey()}" data-theme="dark" data-units="imperial" data-locale="de-DE" data-currency="EUR"></div>`,
    );
    const refused = await session.calc(['embed', 'bmi', '--theme', 'purple'], { env: owner.env });
    expect(refused.exitCode).toBe(2);
  });
});

describe('calc --version', () => {
  test("names calc's version and the Bun it runs on", async () => {
    const result = await session.calc(['--version']);
    expect(result.stdout.trim()).toMatch(/^calc\/\d+\.\d+\.\d+ \S+ bun-\d+\.\d+\.\d+$/);
  });
});
