import type { AddressPolicy } from './address-policy.ts';
import { buildRequestHeaders } from './headers.ts';
import type { FetchOutcome } from './outcomes.ts';
import { readCappedBody } from './read-body.ts';
import {
  isWebhookUrlError,
  parseWebhookUrlOnce,
  resolveAndCheck,
  type Resolver,
  type WebhookTarget,
} from './url-check.ts';

/** Result of {@link guardedFetch}; `body` is set only when `outcome` is `ok`. */
export interface WebhookFetchResult {
  outcome: FetchOutcome;
  httpStatus: number | null;
  durationMs: number;
  body?: Record<string, unknown>;
}

/** What {@link guardedFetch} needs from its caller. */
export interface GuardedFetchDeps {
  resolve: Resolver;
  policy: AddressPolicy;
  /** One budget for lookup, connect, headers and body. Default DEFAULT_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Cap on the decoded body. Default 256 KiB. */
  maxBytes?: number;
  userAgent: string;
  /** The service's own signed headers (`Calc-*`), set after the configured ones. */
  signed?: Record<string, string>;
}

/** One webhook call's budget, from lookup to body (and the save-time URL check's). */
export const DEFAULT_TIMEOUT_MS = 5000;
const DEFAULT_MAX_BYTES = 256 * 1024;

/**
 * The URL to connect to: the checked URL with its host replaced by the checked IP.
 * Built from the parsed URL's own serialised parts (no second parse): the scheme is
 * http(s), the address is the policy's canonical text and the port a checked number.
 */
function pinnedUrl(target: WebhookTarget, address: string): string {
  const literal = address.includes(':') ? `[${address}]` : address;
  return `${target.url.protocol}//${literal}:${target.port}${target.url.pathname}${target.url.search}`;
}

function tlsOptions(target: WebhookTarget): BunFetchRequestInit['tls'] {
  if (target.url.protocol !== 'https:') return undefined;
  // rejectUnauthorized: explicit, so NODE_TLS_REJECT_UNAUTHORIZED=0 cannot turn
  // verification off. serverName: SNI and certificate name stay the customer's host
  // although the URL holds the IP. No checkServerIdentity: it replaces Bun's check.
  if (target.isIpLiteral) return { rejectUnauthorized: true };
  return { rejectUnauthorized: true, serverName: target.hostname.replace(/\.$/, '') };
}

/**
 * The one request of a guarded call: to the checked address only, with the original Host
 * and TLS name, and none of fetch's conveniences that would undo the guard.
 */
export function fetchPinned(
  target: WebhookTarget,
  address: string,
  init: { method: 'GET' | 'POST'; headers: Headers; body?: string; signal: AbortSignal },
): Promise<Response> {
  return fetch(pinnedUrl(target, address), {
    ...init,
    // A 3xx is a failure: following it would carry the customer's secret
    // headers (or a signed body) to a host that was never checked.
    redirect: 'manual',
    // HTTP(S)_PROXY/ALL_PROXY would otherwise apply even to IP URLs and undo
    // the pinning; only `false` turns them off ("" does not).
    proxy: false,
    // Bun's own inflater keeps running after cancel (gzip bombs): decode in JS.
    decompress: false,
    tls: tlsOptions(target),
  });
}

// Without `stream: true` a decoder keeps no state between calls: one serves every fetch.
const utf8 = new TextDecoder('utf-8', { fatal: true });

function parseObject(
  bytes: Uint8Array,
): { outcome: 'ok'; body: Record<string, unknown> } | { outcome: 'invalid_json' | 'not_object' } {
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(bytes));
  } catch {
    return { outcome: 'invalid_json' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { outcome: 'not_object' };
  return { outcome: 'ok', body: value as Record<string, unknown> };
}

/**
 * Performs the outgoing webhook GET under every SSRF rule (docs/webhooks.md, "Addresses
 * your URL may point at"): one parse, one lookup with every answer judged, a connection to
 * the checked address only, no proxy, no redirects, one time budget, a capped and
 * JS-decoded body, and a JSON object required. Never throws: every failure is an outcome.
 */
export async function guardedFetch(
  rawUrl: string,
  headers: Record<string, string>,
  deps: GuardedFetchDeps,
): Promise<WebhookFetchResult> {
  const started = performance.now();
  const finish = (outcome: FetchOutcome, httpStatus: number | null = null): WebhookFetchResult => ({
    outcome,
    httpStatus,
    durationMs: Math.round(performance.now() - started),
  });
  // One signal for everything: a slow resolver, connect, headers and a dripping
  // body all spend the same budget.
  const signal = AbortSignal.timeout(deps.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  try {
    // Checked again on every fetch, not only at save: rules and DNS change (the parse
    // of the same text is remembered; the name is looked up and its address checked anew).
    const target = parseWebhookUrlOnce(rawUrl);
    if (isWebhookUrlError(target)) {
      // 'invalid' (malformed, user info) has no outcome of its own: the guard refused
      // the destination, so it reports as blocked_address.
      return finish(target.outcome === 'bad_scheme' ? 'bad_scheme' : 'blocked_address');
    }
    const checked = await resolveAndCheck(target, { resolve: deps.resolve, policy: deps.policy, signal });
    if (!checked.ok) return finish(checked.outcome);
    let response: Response;
    try {
      response = await fetchPinned(target, checked.address, {
        method: 'GET',
        headers: buildRequestHeaders(headers, {
          userAgent: deps.userAgent,
          host: target.url.host,
          signed: deps.signed,
        }),
        signal,
      });
    } catch {
      return finish(signal.aborted ? 'timeout' : 'unreachable');
    }

    const status = response.status;
    if (status < 200 || status >= 300) {
      void response.body?.cancel().catch(() => {});
      return finish(status >= 300 && status < 400 ? 'redirect' : 'http_error', status);
    }
    const read = await readCappedBody(response, { maxBytes: deps.maxBytes ?? DEFAULT_MAX_BYTES, signal });
    if (!read.ok) return finish(read.outcome, status);
    const parsed = parseObject(read.bytes);
    if (parsed.outcome !== 'ok') return finish(parsed.outcome, status);
    return { ...finish('ok', status), body: parsed.body };
  } catch {
    // Defensive: any unforeseen error still ends as an outcome, never a throw.
    return finish(signal.aborted ? 'timeout' : 'unreachable');
  }
}
