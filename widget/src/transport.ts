/**
 * The API calls a widget makes: POST /v1/widget/load, and /v1/widget/submit when the visitor
 * sends their result, at the script's own origin, as CORS simple requests (text/plain body,
 * no credentials) so no preflight is needed. They never reject: every failure becomes an
 * error code.
 */
import type { InputValues } from '../../src/definition/types.ts';

/**
 * A successful load: the pre-filled values, the calculator's definition as the server sent
 * it (unchecked), and its results config when the owner asks visitors for their result.
 */
export type LoadOutcome =
  | { ok: true; values: InputValues; definition: unknown; results?: Record<string, unknown> }
  | { ok: false; code: string; message: string };

export interface LoadRequest {
  apiKey: string;
  calcId: string;
  domain: string;
  context?: string;
}

// The server waits up to 5 s for a webhook; past this the API itself is in trouble.
const TIMEOUT_MS = 15_000;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Only own number, string and boolean entries: pre-filled values are data, never trusted further. */
export function toInputValues(raw: unknown): InputValues {
  const values: InputValues = {};
  if (!isRecord(raw)) return values;
  for (const key of Object.keys(raw)) {
    const value = raw[key];
    if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') values[key] = value;
  }
  return values;
}

function errorOf(answer: unknown, status: number): { code: string; message: string } {
  const error = isRecord(answer) ? answer.error : undefined;
  if (isRecord(error) && typeof error.code === 'string') {
    return { code: error.code, message: typeof error.message === 'string' ? error.message : '' };
  }
  return { code: `http_${status}`, message: `The API answered ${status}.` };
}

type Answer = { ok: true; answer: unknown } | { ok: false; code: string; message: string };

/** POSTs `body` to `path` at the API; never rejects: every failure becomes an error code. */
async function call(apiOrigin: string, path: string, body: object, signal: AbortSignal): Promise<Answer> {
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), TIMEOUT_MS);
  const abort = () => timeout.abort();
  signal.addEventListener('abort', abort);
  try {
    const response = await fetch(`${apiOrigin}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: JSON.stringify(body),
      credentials: 'omit',
      mode: 'cors',
      signal: timeout.signal,
    });
    let answer: unknown;
    try {
      answer = await response.json();
    } catch {
      answer = undefined;
    }
    return response.ok ? { ok: true, answer } : { ok: false, ...errorOf(answer, response.status) };
  } catch (error) {
    if (signal.aborted) return { ok: false, code: 'aborted', message: 'The widget was destroyed.' };
    if (timeout.signal.aborted)
      return { ok: false, code: 'timeout', message: `No answer from ${apiOrigin} within ${TIMEOUT_MS / 1000} s.` };
    return { ok: false, code: 'network_error', message: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', abort);
  }
}

export async function loadCalculator(
  apiOrigin: string,
  request: LoadRequest,
  signal: AbortSignal,
): Promise<LoadOutcome> {
  const outcome = await call(apiOrigin, '/v1/widget/load', request, signal);
  if (!outcome.ok) return outcome;
  const { answer } = outcome;
  if (!isRecord(answer)) return { ok: false, code: 'bad_response', message: 'The API answer is not JSON.' };
  const calculator = answer.calculator;
  return {
    ok: true,
    values: toInputValues(answer.values),
    definition: isRecord(calculator) && calculator.definition,
    results: isRecord(answer.results) ? answer.results : undefined,
  };
}

/** POST /v1/widget/submit (docs/results.md): true once the server stored the result; a refusal is warned. */
export async function submitResult(apiOrigin: string, body: object, signal: AbortSignal): Promise<boolean> {
  const outcome = await call(apiOrigin, '/v1/widget/submit', body, signal);
  if (!outcome.ok)
    console.warn(`[calc] result not sent: ${outcome.code}${outcome.message ? ` (${outcome.message})` : ''}`);
  return outcome.ok;
}
