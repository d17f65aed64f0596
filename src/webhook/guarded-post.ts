import type { AddressPolicy } from './address-policy.ts';
import { DEFAULT_TIMEOUT_MS, fetchPinned } from './guarded-fetch.ts';
import { buildRequestHeaders } from './headers.ts';
import type { FetchOutcome } from './outcomes.ts';
import { raceAbort } from './abort.ts';
import { isWebhookUrlError, parseWebhookUrlOnce, resolveAndCheck, type Resolver } from './url-check.ts';

/** How a POST ends: `ok` is a 2xx; the rest mean what the pull's outcomes mean (docs/webhooks.md). */
export const POST_OUTCOMES = [
  'ok',
  'timeout',
  'http_error',
  'redirect',
  'blocked_address',
  'bad_scheme',
  'unreachable',
] as const satisfies readonly FetchOutcome[];

type PostOutcome = (typeof POST_OUTCOMES)[number];

/** Result of {@link guardedPost}. */
export interface PostResult {
  outcome: PostOutcome;
  httpStatus: number | null;
  durationMs: number;
  /** The start of the answer's body, as text (at most `maxResponseBytes` bytes of it). */
  response: string;
}

export interface GuardedPostDeps {
  resolve: Resolver;
  policy: AddressPolicy;
  userAgent: string;
  /** One budget for lookup, connect, headers and the part of the body read. Default 5 s. */
  timeoutMs?: number;
  /** How much of the answer is read before the rest is cancelled. */
  maxResponseBytes: number;
}

/**
 * POSTs `body` under every rule of the guarded pull (docs/webhooks.md, "Addresses your URL
 * may point at"): one parse, one lookup with every answer judged, a connection to the
 * checked address only, no proxy, no redirects, one time budget, no decompression. Only the
 * first `maxResponseBytes` of the answer are read; the rest is cancelled unread, so an
 * endless or huge answer costs nothing more. Never throws: every failure is an outcome.
 */
export async function guardedPost(
  rawUrl: string,
  body: string,
  headers: Record<string, string>,
  deps: GuardedPostDeps,
): Promise<PostResult> {
  const started = performance.now();
  const finish = (outcome: PostOutcome, httpStatus: number | null = null, response = ''): PostResult => ({
    outcome,
    httpStatus,
    durationMs: Math.round(performance.now() - started),
    response,
  });
  const signal = AbortSignal.timeout(deps.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  try {
    // Checked again on every attempt, not only at save: rules and DNS change.
    const target = parseWebhookUrlOnce(rawUrl);
    if (isWebhookUrlError(target)) return finish(target.outcome === 'bad_scheme' ? 'bad_scheme' : 'blocked_address');
    const checked = await resolveAndCheck(target, { resolve: deps.resolve, policy: deps.policy, signal });
    if (!checked.ok) return finish(checked.outcome);
    let response: Response;
    try {
      response = await fetchPinned(target, checked.address, {
        method: 'POST',
        headers: buildRequestHeaders({}, { userAgent: deps.userAgent, host: target.url.host, signed: headers }),
        body,
        signal,
      });
    } catch {
      return finish(signal.aborted ? 'timeout' : 'unreachable');
    }
    const status = response.status;
    const outcome: PostOutcome =
      status >= 200 && status < 300 ? 'ok' : status >= 300 && status < 400 ? 'redirect' : 'http_error';
    return finish(outcome, status, await readStart(response, deps.maxResponseBytes, signal));
  } catch {
    return finish(signal.aborted ? 'timeout' : 'unreachable');
  }
}

// Not fatal: the start of an answer may end inside a character.
const lossyUtf8 = new TextDecoder('utf-8');

/**
 * The first `maxBytes` of the answer's body as it came on the wire, then the stream is
 * cancelled. A compressed answer is not inflated (that would cost what a bomb asks for): it
 * is named instead. What arrived before the budget ran out is kept.
 */
async function readStart(response: Response, maxBytes: number, signal: AbortSignal): Promise<string> {
  const encoding = (response.headers.get('content-encoding') ?? '').trim().toLowerCase();
  const reader = response.body?.getReader();
  if (reader === undefined) return '';
  if (encoding !== '' && encoding !== 'identity') {
    void reader.cancel().catch(() => {});
    return `(a ${encoding}-encoded answer, not shown)`;
  }
  const bytes = new Uint8Array(maxBytes);
  let length = 0;
  try {
    while (length < maxBytes) {
      const chunk = await raceAbort(reader.read(), signal);
      if (chunk.done) break;
      const part = chunk.value.subarray(0, maxBytes - length);
      bytes.set(part, length);
      length += part.byteLength;
    }
  } catch {
    // The budget ran out or the connection broke mid-answer: what came is what is shown.
  }
  void reader.cancel().catch(() => {});
  return lossyUtf8.decode(bytes.subarray(0, length));
}
