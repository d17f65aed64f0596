import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { startCliSession, type CliSession } from '../helpers/cli-session.ts';
import { runOnTerminal } from '../helpers/pty.ts';

// Every test starts processes; a loaded machine must not turn that into a failure.
setDefaultTimeout(30_000);

/**
 * The commands that destroy something (keys rotate, domains remove, config
 * remove-webhook) ask on a terminal, act only on "y", refuse without a terminal unless
 * given --yes, and act at once with --yes.
 */
let session: CliSession;
let owner: Awaited<ReturnType<CliSession['signedIn']>>;
beforeAll(async () => {
  session = await startCliSession();
  owner = await session.signedIn('extra');
}, 30_000);
afterAll(() => session[Symbol.asyncDispose]());

const onTerminal = (args: string[], answer: string, prompt: string) =>
  runOnTerminal([...session.command, ...args], [{ waitFor: prompt, type: `${answer}\r` }], {
    ...owner.env,
    CALC_API_URL: session.url,
    NO_COLOR: '1',
  });

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

  test('config remove-webhook: asks before deleting the saved headers', async () => {
    const declined = await onTerminal(['config', 'remove-webhook', 'bmi'], 'N', 'Remove the webhook of bmi? [y/N] ');
    expect(declined.exitCode).toBe(1);
    expect(declined.screen).toContain('saved header values are deleted');
    const accepted = await onTerminal(['config', 'remove-webhook', 'bmi'], 'y', 'Remove the webhook of bmi? [y/N] ');
    expect(accepted.exitCode).toBe(0);
    expect(accepted.screen).toContain('bmi has no webhook now');
  });
});

describe('without a terminal', () => {
  test.each([
    [['keys', 'rotate']],
    [['domains', 'remove', 'https://gone.shop.example']],
    [['config', 'remove-webhook', 'bmi']],
  ])('%p refuses, names --yes, changes nothing; --json carries a code', async (args) => {
    const before = await apiKey();
    const refused = await session.calc([...args, '--json'], { env: owner.env });
    expect(refused.exitCode).toBe(1);
    expect(refused.stdout).toBe('');
    const error = JSON.parse(refused.stderr).error;
    expect(error.code).toBe('confirmation_required');
    expect(error.message).toContain('pass --yes to confirm');
    expect(await apiKey()).toBe(before);
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
