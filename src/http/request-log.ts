import type { Logger, RequestLineWriter } from '../logger.ts';
import { pathOf } from './path.ts';

interface RequestInfo {
  id: string;
  startedAt: number;
  ms?: number;
}

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
const nextId = (): string => ID_PREFIX + (++idCounter).toString(36);

/**
 * A request's line holds only method, path, status, time and id: never bodies, queries,
 * headers or tokens. Paths are cut at 200 characters.
 */
const loggedPath = (path: string): string => (path.length > 200 ? `${path.slice(0, 200)}…` : path);

export type RequestLog = ReturnType<typeof createRequestLog>;

/**
 * Request ids and one log line per request. The id comes from a well-formed incoming
 * `X-Request-Id` (a proxy's) or is generated; it is echoed on every answer.
 *
 * `start`/`markDone`/`finish` follow a request through Elysia's hooks (kept in a WeakMap);
 * the widget's native routes hold the id and clock themselves and call `idFor` and a
 * `routeWriter`.
 */
export function createRequestLog(logger: Logger) {
  const info = new WeakMap<Request, RequestInfo>();

  /** Milliseconds since `startedAt`, to 0.01 ms. */
  const elapsed = (startedAt: number): number => Math.round((performance.now() - startedAt) * 100) / 100;

  function idFor(request: Request): string {
    const incoming = request.headers.get('x-request-id');
    return incoming && ACCEPTED_ID.test(incoming) ? incoming : nextId();
  }

  return {
    idFor,
    elapsed,
    /** The log line writer of one fixed route (the widget's native routes). */
    routeWriter: (method: string, path: string): RequestLineWriter => logger.requestLines(method, loggedPath(path)),
    start(request: Request): string {
      const id = idFor(request);
      info.set(request, { id, startedAt: performance.now() });
      return id;
    },
    idOf(request: Request): string {
      return info.get(request)?.id ?? 'unknown';
    },
    /** Stops the clock when the answer is ready (the log line itself is written later). */
    markDone(request: Request): void {
      const found = info.get(request);
      if (found && found.ms === undefined) found.ms = elapsed(found.startedAt);
    },
    finish(request: Request, status: number): void {
      const found = info.get(request);
      logger.requestLines(request.method, loggedPath(pathOf(request.url)))(
        found?.id,
        status,
        found ? (found.ms ?? elapsed(found.startedAt)) : undefined,
      );
    },
  };
}
