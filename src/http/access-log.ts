import type { Logger, RequestLineWriter } from '../logger.ts';
import { pathOf } from './path.ts';
import { requestIdOf } from './request-id.ts';

interface RequestInfo {
  id: string;
  startedAt: number;
  ms?: number;
}

/**
 * A request's line holds only method, path, status, time and id: never bodies, queries,
 * headers or tokens. Paths are cut at 200 characters.
 */
const loggedPath = (path: string): string => (path.length > 200 ? `${path.slice(0, 200)}…` : path);

/** Milliseconds since `startedAt`, to 0.01 ms. */
export const elapsedMs = (startedAt: number): number => Math.round((performance.now() - startedAt) * 100) / 100;

export type AccessLog = ReturnType<typeof createAccessLog>;

/**
 * One log line per request (`msg: "request"`), with its id, status and time.
 *
 * `start`/`markDone`/`finish` follow a request through Elysia's hooks (kept in a WeakMap);
 * the native routes hold the id and clock themselves and write through a `routeWriter`.
 */
export function createAccessLog(logger: Logger) {
  const info = new WeakMap<Request, RequestInfo>();

  return {
    /** The log line writer of one fixed route (the native routes). */
    routeWriter: (method: string, path: string): RequestLineWriter => logger.requestLines(method, loggedPath(path)),
    /** Gives the request its id and starts its clock; returns the id. */
    start(request: Request): string {
      const id = requestIdOf(request);
      info.set(request, { id, startedAt: performance.now() });
      return id;
    },
    idOf(request: Request): string {
      return info.get(request)?.id ?? 'unknown';
    },
    /** Stops the clock when the answer is ready (the log line itself is written later). */
    markDone(request: Request): void {
      const found = info.get(request);
      if (found && found.ms === undefined) found.ms = elapsedMs(found.startedAt);
    },
    finish(request: Request, status: number): void {
      const found = info.get(request);
      logger.requestLines(request.method, loggedPath(pathOf(request.url)))(
        found?.id,
        status,
        found ? (found.ms ?? elapsedMs(found.startedAt)) : undefined,
      );
    },
  };
}
