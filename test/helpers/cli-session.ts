import { join } from 'node:path';
import { runCommand, SOURCE_CLI, startServe } from './process.ts';
import { tempDir } from './temp-dir.ts';

export const TEST_PASSWORD = 'correct horse battery';

export interface CliSessionOptions {
  /** The calc program: the sources (default) or the compiled executable. */
  command?: string[];
  /** Extra `calc serve` flags. */
  serveArgs?: string[];
  /** Extra server environment (e.g. CALC_JWT_SECRET, CALC_WEBHOOK_ALLOW_CIDRS). */
  serveEnv?: Record<string, string>;
}

/**
 * One real server on a free port with a temp data directory, and a temp config
 * directory for the owner commands. `calc()` runs a command against that server as a
 * separate process, exactly as a person would.
 */
export async function startCliSession(options: CliSessionOptions = {}) {
  const command = options.command ?? SOURCE_CLI;
  const dir = tempDir('calc-cli-');
  const dataDir = join(dir.path, 'data');
  const configDir = join(dir.path, 'config');
  // Every sign-in of the file's tests comes from 127.0.0.1, one address standing for many
  // owners: its per-address limit (30 a minute) would refuse a file that runs quickly.
  // test/api/abuse-limits.test.ts tests that limit.
  const serveEnv = { CALC_RATE_SIGNIN_ADDRESS_PER_MINUTE: '0', ...options.serveEnv };
  const server = await startServe(command, ['--data', dataDir, ...(options.serveArgs ?? [])], serveEnv);
  const baseEnv = { CALC_CONFIG_DIR: configDir, CALC_API_URL: server.url, CALC_TOKEN: '', NO_COLOR: '1' };
  let counter = 0;

  /** Runs `calc …args` against this session's server and config directory. */
  function calc(args: string[], run: { stdin?: string; env?: Record<string, string> } = {}) {
    return runCommand(command, args, { stdin: run.stdin, env: { ...baseEnv, ...run.env } });
  }

  /** Creates an account with the operator command, on the same data directory the server uses. */
  async function createAccount(
    plan: 'free' | 'base' | 'extra' = 'free',
    email = `owner${++counter}-${Date.now().toString(36)}@shop.example`,
  ) {
    const result = await runCommand(
      command,
      [
        'admin',
        'accounts',
        'create',
        '--email',
        email,
        '--plan',
        plan,
        '--password-stdin',
        '--data',
        dataDir,
        '--json',
      ],
      {
        stdin: `${TEST_PASSWORD}\n`,
      },
    );
    if (result.exitCode !== 0) throw new Error(`account create failed: ${result.stderr}`);
    return {
      email,
      password: TEST_PASSWORD,
      apiKey: (JSON.parse(result.stdout) as { account: { apiKey: string } }).account.apiKey,
    };
  }

  /** A fresh account of `plan`, signed in through `calc login --password-stdin`; env for its own config dir. */
  async function signedIn(plan: 'free' | 'base' | 'extra' = 'free') {
    const account = await createAccount(plan);
    const env = { CALC_CONFIG_DIR: join(dir.path, `config-${account.email}`) };
    const login = await calc(['login', '--email', account.email, '--password-stdin'], {
      stdin: `${account.password}\n`,
      env,
    });
    if (login.exitCode !== 0) throw new Error(`login failed: ${login.stderr}`);
    return { ...account, env, configDir: env.CALC_CONFIG_DIR };
  }

  return {
    url: server.url,
    server,
    dataDir,
    configDir,
    command,
    calc,
    createAccount,
    signedIn,
    async [Symbol.asyncDispose]() {
      await server[Symbol.asyncDispose]();
      dir[Symbol.dispose]();
    },
  };
}

export type CliSession = Awaited<ReturnType<typeof startCliSession>>;

/** Parses stdout that must be exactly one JSON document. */
export function jsonOf<T = Record<string, unknown>>(stdout: string): T {
  return JSON.parse(stdout) as T;
}
