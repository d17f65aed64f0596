/**
 * The one way the dashboard calls the server: the same public JSON routes as the CLI,
 * with the token as `Authorization: Bearer`. A 401 `unauthorized` anywhere ends the
 * session, so the sign-in form shows at the same address and returns to it.
 */
import { endSession, token } from './session.ts';

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The error's `details`, as the server gave them (the problems of a refused definition, say). */
    readonly details?: unknown,
  ) {
    super(message);
  }
}

function errorOf(body: unknown, status: number): ApiError {
  const error = typeof body === 'object' && body !== null ? (body as { error?: unknown }).error : undefined;
  if (typeof error === 'object' && error !== null) {
    const { code, message, details } = error as { code?: unknown; message?: unknown; details?: unknown };
    if (typeof code === 'string' && typeof message === 'string') return new ApiError(status, code, message, details);
  }
  return new ApiError(status, `http_${status}`, `The server answered ${status}.`);
}

/**
 * The server's answer to an API call when it is a success (2xx), its body unread (a file to
 * download, say). A failure throws its ApiError; an invalid session signs out.
 */
export async function apiResponse(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<Response> {
  const headers: Record<string, string> = {};
  const bearer = token.value;
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch {
    throw new ApiError(0, 'network_error', 'The server cannot be reached. Check your connection and try again.');
  }
  if (!response.ok) {
    const error = errorOf(await response.json().catch(() => undefined), response.status);
    // Only an invalid session signs out: a wrong password on a form is a 401 too.
    if (error.code === 'unauthorized' && bearer) endSession(error.message);
    throw error;
  }
  return response;
}

/** An API call's JSON answer (undefined for an answer without one); a failure throws its ApiError. */
export async function api<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const response = await apiResponse(method, path, body);
  return (await response.json().catch(() => undefined)) as T;
}

/** The code and details of a refusal by the server ('' and undefined for any other failure). */
export const refusalOf = (error: unknown): { code: string; details: unknown } =>
  error instanceof ApiError ? { code: error.code, details: error.details } : { code: '', details: undefined };

/** The message to show for any failure. */
export const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : 'Something went wrong. Try again.';
