import type { Logger } from '../logger.ts';
import { pathOf } from './path.ts';

interface RequestInfo {
  id: string;
  startedAt: number;
  ms?: number;
}

const ACCEPTED_ID = /^[A-Za-z0-9._-]{8,64}$/;

/**
 * Request ids and one log line per request. The id comes from a well-formed incoming
 * `X-Request-Id` (a proxy's) or is generated; it is echoed on every answer.
 */
export function createRequestLog(logger: Logger) {
  const info = new WeakMap<Request, RequestInfo>();

  return {
    start(request: Request): string {
      const incoming = request.headers.get('x-request-id');
      const id = incoming && ACCEPTED_ID.test(incoming) ? incoming : crypto.randomUUID();
      info.set(request, { id, startedAt: performance.now() });
      return id;
    },
    idOf(request: Request): string {
      return info.get(request)?.id ?? 'unknown';
    },
    /** Stops the clock when the answer is ready (the log line itself is written later). */
    markDone(request: Request): void {
      const found = info.get(request);
      if (found && found.ms === undefined) found.ms = Math.round((performance.now() - found.startedAt) * 100) / 100;
    },
    finish(request: Request, status: number): void {
      const found = info.get(request);
      const path = pathOf(request.url);
      // Only method, path, status, time and id: never bodies, queries, headers or tokens.
      logger.info('request', {
        requestId: found?.id,
        method: request.method,
        path: path.length > 200 ? `${path.slice(0, 200)}…` : path,
        status,
        ms: found?.ms ?? (found ? Math.round((performance.now() - found.startedAt) * 100) / 100 : undefined),
      });
    },
  };
}
