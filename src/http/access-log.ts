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

/** The status of a request whose client went away before its answer (nginx's). */
export const CLIENT_CLOSED = 499;

/**
 * One log line per request (`msg: "request"`), with its id, status and time.
 *
 * `start`/`markDone`/`finish` follow a request through Elysia's hooks (kept in a WeakMap);
 * the native routes hold the id and clock themselves, say `begin`/`settle`, and write
 * through a `routeWriter`.
 *
 * It also knows the requests in progress: a shutdown keeps their connections open (and
 * closes the others at once), and at its deadline cuts them. A request it cut is logged as
 * the server's doing, never as a client that went away: 408 when its body was still
 * arriving (its read failed as the connection closed), 503 when the server was still
 * working on it.
 */
export function createAccessLog(logger: Logger) {
  const info = new WeakMap<Request, RequestInfo>();
  const inProgress = new Set<Request>();
  const cut = new WeakSet<Request>();

  /** The status a finished request is logged with; it is no longer in progress. */
  const settle = (request: Request, status: number): number => {
    if (inProgress.delete(request) || !cut.has(request)) return status;
    return status === CLIENT_CLOSED ? 408 : 503;
  };

  return {
    /** The log line writer of one fixed route (the native routes). */
    routeWriter: (method: string, path: string): RequestLineWriter => logger.requestLines(method, loggedPath(path)),
    /** A native route's request is in progress (Elysia's say `start`). */
    begin(request: Request): void {
      inProgress.add(request);
    },
    settle,
    /** The requests in progress, for a shutdown that keeps their connections. */
    inProgress: (): Iterable<Request> => inProgress,
    /** At the shutdown deadline: the requests in progress are being cut by the server. Answers how many. */
    cutInProgress(): number {
      const count = inProgress.size;
      for (const request of inProgress) cut.add(request);
      inProgress.clear();
      return count;
    },
    /** Gives the request its id and starts its clock; returns the id. */
    start(request: Request): string {
      const id = requestIdOf(request);
      info.set(request, { id, startedAt: performance.now() });
      inProgress.add(request);
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
        settle(request, status),
        found ? (found.ms ?? elapsedMs(found.startedAt)) : undefined,
      );
    },
  };
}
