import { CliFailure, EXIT } from '../base-command.ts';
import { readLogin, type StoredLogin } from './credentials.ts';

export const DEFAULT_API_URL = 'http://127.0.0.1:8787';

type Env = Record<string, string | undefined>;

/** Which server to call and with which token (null: not signed in to it). */
export interface ApiTarget {
  baseUrl: string;
  token: string | null;
  /** Why there is no token, for the "run `calc login`" message. */
  missingTokenReason: string;
}

/**
 * Base URL: `--api-url`, else `CALC_API_URL`, else the server of the stored login, else
 * the local default. Token: `CALC_TOKEN`, else the stored login — but only when it was
 * issued by that same server, so a token is never sent to a server it does not belong to.
 */
export function resolveApiTarget(flagUrl: string | undefined, env: Env = process.env, now = new Date()): ApiTarget {
  const login = readLogin(env);
  const envUrl = nonEmpty(env.CALC_API_URL);
  const [raw, source] =
    flagUrl !== undefined
      ? [flagUrl, '--api-url']
      : envUrl
        ? [envUrl, 'CALC_API_URL']
        : login
          ? [login.apiUrl, "the stored login's apiUrl"]
          : [DEFAULT_API_URL, 'the default'];
  const baseUrl = normaliseApiUrl(raw, source);
  const envToken = nonEmpty(env.CALC_TOKEN);
  if (envToken) return { baseUrl, token: envToken, missingTokenReason: '' };
  return { baseUrl, ...storedToken(login, baseUrl, now) };
}

function storedToken(login: StoredLogin | null, baseUrl: string, now: Date): Omit<ApiTarget, 'baseUrl'> {
  if (!login) return { token: null, missingTokenReason: 'Not signed in.' };
  if (login.apiUrl !== baseUrl) {
    return {
      token: null,
      missingTokenReason: `Not signed in to ${baseUrl} (the stored login is for ${login.apiUrl}).`,
    };
  }
  const expires = Date.parse(login.expiresAt);
  if (Number.isFinite(expires) && expires <= now.getTime()) {
    return { token: null, missingTokenReason: `The session for ${login.email} expired at ${login.expiresAt}.` };
  }
  return { token: login.token, missingTokenReason: '' };
}

/** The one spelling of a base URL (no trailing slash), or exit 1 for a value that is not one. */
export function normaliseApiUrl(raw: string, source = '--api-url'): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badUrl(raw, source);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badUrl(raw, source);
  // Credentials in the URL would be sent on every request and land in shell history.
  if (url.username || url.password || url.search || url.hash) throw badUrl(raw, source);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function badUrl(raw: string, source: string): CliFailure {
  return new CliFailure(
    `${source} "${raw}" is not a server address such as https://calc.example.com (http or https, no user, query or fragment).`,
    EXIT.failure,
  );
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}
