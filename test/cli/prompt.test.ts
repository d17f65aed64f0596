import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { startCliSession, type CliSession } from '../helpers/cli-session.ts';
import { runOnTerminal } from '../helpers/pty.ts';

// Every test starts processes; a loaded machine must not turn that into a failure.
setDefaultTimeout(30_000);

/**
 * `calc login` and `calc signup` on a real pseudo-terminal: the password prompt must
 * not echo, so the password never appears in what the terminal shows (or records).
 */
let session: CliSession;
beforeAll(async () => {
  session = await startCliSession();
}, 30_000);
afterAll(() => session[Symbol.asyncDispose]());

const calcArgv = (...args: string[]) => [...session.command, ...args];

describe('hidden password prompt (pty via util-linux script)', () => {
  test('login --email: the typed password is never on the screen; sign-in works', async () => {
    const account = await session.createAccount();
    const { screen, exitCode } = await runOnTerminal(
      calcArgv('login', '--email', account.email),
      [{ waitFor: 'Password: ', type: `${account.password}\r` }],
      {
        CALC_CONFIG_DIR: `${session.dataDir}/../pty-1`,
        CALC_API_URL: session.url,
      },
    );
    expect(exitCode).toBe(0);
    expect(screen).toContain(`Signed in to ${session.url} as ${account.email}`);
    expect(screen).not.toContain(account.password);
    expect(screen).not.toContain('horse');
  });

  test('login with no flags asks for the email (echoed) and the password (hidden); backspace edits', async () => {
    const account = await session.createAccount();
    const { screen, exitCode } = await runOnTerminal(
      calcArgv('login'),
      [
        { waitFor: 'Email: ', type: `${account.email}\r` },
        // A typo corrected with backspace: the password sent is the real one.
        { waitFor: 'Password: ', type: `${account.password}XY\u007f\u007f\r` },
      ],
      { CALC_CONFIG_DIR: `${session.dataDir}/../pty-2`, CALC_API_URL: session.url },
    );
    expect(exitCode).toBe(0);
    expect(screen).toContain(`Email: ${account.email}`);
    expect(screen).not.toContain(account.password);
  });

  test('a wrong password on the terminal: the server message, exit 1, still nothing echoed', async () => {
    const account = await session.createAccount();
    const { screen, exitCode } = await runOnTerminal(
      calcArgv('login', '--email', account.email),
      [{ waitFor: 'Password: ', type: 'wrong-password-typed\r' }],
      {
        CALC_CONFIG_DIR: `${session.dataDir}/../pty-3`,
        CALC_API_URL: session.url,
      },
    );
    expect(exitCode).toBe(1);
    expect(screen).toContain('Email or password is wrong.');
    expect(screen).not.toContain('wrong-password-typed');
  });

  test('Ctrl-C at the password prompt cancels: exit 1', async () => {
    const { screen, exitCode } = await runOnTerminal(
      calcArgv('login', '--email', 'x@shop.example'),
      [{ waitFor: 'Password: ', type: 'abc\u0003' }],
      {
        CALC_CONFIG_DIR: `${session.dataDir}/../pty-4`,
        CALC_API_URL: session.url,
      },
    );
    expect(exitCode).toBe(1);
    expect(screen).toContain('Cancelled.');
    expect(screen).not.toContain('abc');
  });

  test('signup asks twice and refuses two different passwords', async () => {
    const { screen, exitCode } = await runOnTerminal(
      calcArgv('signup', '--email', `pty-${Date.now()}@shop.example`),
      [
        { waitFor: 'Password: ', type: 'first-password-1\r' },
        { waitFor: 'Repeat password: ', type: 'second-password-2\r' },
      ],
      { CALC_CONFIG_DIR: `${session.dataDir}/../pty-5`, CALC_API_URL: session.url },
    );
    expect(exitCode).toBe(1);
    expect(screen).toContain('The two passwords differ');
    expect(screen).not.toContain('first-password-1');
    expect(screen).not.toContain('second-password-2');
  });
});
