/**
 * What the API and the CLI show instead of a stored header value; sent back in a save,
 * it keeps the value stored under that name.
 */
export const REDACTED = '<redacted>';

/**
 * Names a customer may not configure: `Host` and the signed `Calc-*` headers are ours
 * (docs/webhooks.md), the rest are hop-by-hop or framing.
 */
const FORBIDDEN_HEADER_NAMES: ReadonlySet<string> = new Set([
  'host',
  'calc-calculator',
  'calc-origin',
  'calc-visitor',
  'calc-signature',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'trailers',
  'upgrade',
]);

const MAX_HEADERS = 20;
const MAX_TOTAL_BYTES = 8 * 1024;
/** RFC 9110 token characters: what an HTTP header name may hold. */
export const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// Control characters other than tab: CR and LF would split the request (header
// injection), NUL truncates in some servers, and the rest have no business in a value
// (RFC 9110 allows only tab, visible characters and spaces). Code points above U+00FF
// cannot be sent in an HTTP/1.1 header at all.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point of this check
const BAD_VALUE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]|[^\u0000-\u00ff]/u;

/** Result of {@link validateWebhookHeaders}. */
export type HeaderValidation = { ok: true; headers: Record<string, string> } | { ok: false; reason: string };

function headerProblem(name: string, value: unknown): string | null {
  if (!HEADER_NAME.test(name)) return `header name ${JSON.stringify(name)} is not an HTTP token`;
  if (FORBIDDEN_HEADER_NAMES.has(name.toLowerCase())) return `header ${name} may not be set`;
  if (typeof value !== 'string') return `header ${name} must have a string value`;
  if (BAD_VALUE.test(value))
    return `header ${name} contains a control character (only tab is allowed) or a character outside Latin-1`;
  return null;
}

/**
 * Checks configured webhook headers (docs/webhooks.md, "Setting it up"): a plain object of at most 20
 * entries, HTTP-token names (unique ignoring case), values without CR/LF/NUL, 8 KiB
 * in all, and none of the forbidden names; values hold no control character but tab.
 */
export function validateWebhookHeaders(input: unknown): HeaderValidation {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { ok: false, reason: 'headers must be an object of names to string values' };
  }
  const entries = Object.entries(input);
  if (entries.length > MAX_HEADERS) return { ok: false, reason: `at most ${MAX_HEADERS} headers` };
  const seen = new Set<string>();
  const headers: Record<string, string> = {};
  let total = 0;
  for (const [name, value] of entries) {
    const problem = headerProblem(name, value);
    if (problem !== null) return { ok: false, reason: problem };
    const lower = name.toLowerCase();
    if (seen.has(lower)) return { ok: false, reason: `header ${name} is given twice` };
    seen.add(lower);
    total += Buffer.byteLength(name) + Buffer.byteLength(value as string);
    Object.defineProperty(headers, name, { value, enumerable: true, writable: true, configurable: true });
  }
  if (total > MAX_TOTAL_BYTES) return { ok: false, reason: 'headers exceed 8 KiB in all' };
  return { ok: true, headers };
}

/**
 * Builds the outgoing request headers: `Accept: application/json` and the service's
 * `User-Agent`, then the configured headers (which win, ignoring case), then the signed
 * `Calc-*` headers and `Host`. Configured entries that break the rules are dropped here
 * too, in case the stored config predates a rule.
 */
export function buildRequestHeaders(
  configured: Record<string, string>,
  service: { userAgent: string; host: string; signed?: Record<string, string> },
): Headers {
  const headers = new Headers();
  headers.set('Accept', 'application/json');
  headers.set('User-Agent', service.userAgent);
  for (const [name, value] of Object.entries(configured)) {
    if (headerProblem(name, value) === null) headers.set(name, value);
  }
  if (service.signed) for (const [name, value] of Object.entries(service.signed)) headers.set(name, value);
  // Always the checked URL's own host: the request goes to the pinned IP and the
  // Host header is what the customer's virtual host and TLS name rely on.
  headers.set('Host', service.host);
  return headers;
}
