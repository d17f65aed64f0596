import type { BodyRules } from './body.ts';
import type { CorsPolicy } from './cors.ts';

/**
 * A concern one route group adds to the shared ones (a rate limit, say). It runs after
 * the body is parsed and checked, before the handler, on Elysia and native routes alike;
 * it refuses a request by throwing an `AppError` (which becomes the error envelope).
 * Return nothing, without a promise, when there is nothing to wait for: the widget's
 * routes are hot.
 */
export interface GroupConcern {
  name: string;
  before(request: Request, body: unknown): void | Promise<void>;
}

/**
 * A set of routes that share their HTTP rules, declared once where the app is put
 * together (src/app.ts). Every request gets a request id, one access-log line and the
 * error envelope whatever its group; a group declares the rest, so the shared layer
 * never looks at paths.
 */
export interface RouteGroup {
  name: string;
  cors: CorsPolicy;
  body: BodyRules;
  /** Per-group concerns, run in this order. */
  concerns: readonly GroupConcern[];
}

/** Runs a group's concerns; a promise only when one of them returned one. */
export function runConcerns(concerns: readonly GroupConcern[], request: Request, body: unknown): void | Promise<void> {
  for (let i = 0; i < concerns.length; i++) {
    const pending = concerns[i]?.before(request, body);
    if (pending instanceof Promise) return pending.then(() => runConcerns(concerns.slice(i + 1), request, body));
  }
}
