import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** What `calc login` keeps: which server issued the token, for whom, until when. */
export interface StoredLogin {
  apiUrl: string;
  token: string;
  email: string;
  expiresAt: string;
}

type Env = Record<string, string | undefined>;

const FILE_NAME = 'credentials.json';

/**
 * `$CALC_CONFIG_DIR`, else `$XDG_CONFIG_HOME/calc`, else `~/.config/calc`. The env
 * override lets tests (and people with several servers) keep logins apart, like `GH_CONFIG_DIR`.
 */
export function configDir(env: Env = process.env): string {
  if (env.CALC_CONFIG_DIR) return env.CALC_CONFIG_DIR;
  if (env.XDG_CONFIG_HOME) return join(env.XDG_CONFIG_HOME, 'calc');
  return join(homedir(), '.config', 'calc');
}

export function credentialsPath(env: Env = process.env): string {
  return join(configDir(env), FILE_NAME);
}

/** The stored login, or null when there is none or the file is not one we wrote. */
export function readLogin(env: Env = process.env): StoredLogin | null {
  let text: string;
  try {
    text = readFileSync(credentialsPath(env), 'utf8');
  } catch {
    return null;
  }
  try {
    const value: unknown = JSON.parse(text);
    return isStoredLogin(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * Writes the login readable by its owner only: the token signs in as the account.
 * Written to a 0600 temp file and renamed, so a reader never sees half a file and the
 * token is never briefly world-readable.
 */
export function writeLogin(login: StoredLogin, env: Env = process.env): string {
  const dir = configDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // mkdir keeps an existing directory's mode; tighten it in case it was created wider.
  chmodSync(dir, 0o700);
  const file = join(dir, FILE_NAME);
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(login, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temp, 0o600);
  renameSync(temp, file);
  return file;
}

/** Forgets the stored login; true when there was one. */
export function removeLogin(env: Env = process.env): boolean {
  const file = credentialsPath(env);
  const existed = existsSync(file);
  rmSync(file, { force: true });
  return existed;
}

function isStoredLogin(value: unknown): value is StoredLogin {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return ['apiUrl', 'token', 'email', 'expiresAt'].every((key) => typeof record[key] === 'string');
}
