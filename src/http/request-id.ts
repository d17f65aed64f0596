/**
 * Incoming ids that are kept (a proxy's). Their characters, like those of generated ids,
 * need no escaping in a log line (`Logger.requestLines` writes ids as they are).
 */
const ACCEPTED_ID = /^[A-Za-z0-9._-]{8,64}$/;

/**
 * Generated ids: this process's random prefix (48 bits, hex) and a counter, as in
 * `3f9c0a5e7b21-1k2`. Unique within the process, apart across restarts and servers, and
 * cheaper than a random UUID on every widget call. Ids only correlate log lines; they
 * are not secrets.
 */
const ID_PREFIX = `${Buffer.from(crypto.getRandomValues(new Uint8Array(6))).toString('hex')}-`;
let idCounter = 0;

/**
 * A request's id: a well-formed incoming `X-Request-Id` (a proxy's) or a generated one.
 * Every answer echoes it in `X-Request-Id`; every log line about the request carries it.
 */
export function requestIdOf(request: Request): string {
  const incoming = request.headers.get('x-request-id');
  return incoming !== null && ACCEPTED_ID.test(incoming) ? incoming : ID_PREFIX + (++idCounter).toString(36);
}
