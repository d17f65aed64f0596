import type { Static, TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { Logger } from '../logger.ts';
import { type AccessLog, elapsedMs } from './access-log.ts';
import { parseJsonText, readBodyText } from './body.ts';
import { corsHeaders, preflightAnswer } from './cors.ts';
import { clientClosedAnswer, errorAnswer, schemaFailure } from './error-answer.ts';
import type { RouteLike } from './openapi.ts';
import { pathOf } from './path.ts';
import { requestIdOf } from './request-id.ts';
import { type RouteGroup, runConcerns } from './route-group.ts';

/**
 * A POST route that Bun's own router serves (`Bun.serve({ routes })`), without Elysia's
 * per-request hook pipeline. Used for the widget's verify, load and events, which every
 * embedding page calls: there the pipeline cost about 40% of the throughput. The route follows the
 * same rules as the Elysia routes, from the same modules: request id, one access-log
 * line, its group's CORS policy, body rules and concerns, the schema check, the error
 * envelope.
 */
export interface NativeRoute<S extends TSchema = TSchema> {
  path: string;
  /** Checked before `answer` runs; also documents the route in /openapi.json. */
  body: S;
  /**
   * Checks of the body that its schema would make slowly (TypeBox's `uniqueItems` hashes
   * every item: microseconds on a route that takes fractions of one), run right after it:
   * throws 400 `invalid_request`.
   */
  refine?(body: Static<S>): void;
  /** Documentation only, as on Elysia routes: `response` schemas and `detail`. */
  response: Record<number, TSchema>;
  detail: NonNullable<RouteLike['hooks']['detail']>;
  /** The 200 answer as JSON text (callers pre-serialise what never changes). */
  answer(body: Static<S>, request: Request): string | Promise<string>;
  /**
   * 204: the route has nothing to say when it succeeds (the widget's events), so it
   * answers no body and `answer`'s text is not sent. Default 200.
   */
  status?: 200 | 204;
}

type NativeHandler = (request: Request) => Response | Promise<Response>;

export interface NativeRoutes {
  /** For `Bun.serve({ routes })`: other methods on these paths fall through to Elysia. */
  routes: Record<string, { POST: NativeHandler; OPTIONS?: NativeHandler }>;
  /** What Bun's router would pick for this request, if anything (for `app.handle` callers). */
  match(request: Request): NativeHandler | undefined;
  /** For the OpenAPI document. */
  docs: RouteLike[];
}

export function nativeRoutes(
  list: NativeRoute[],
  group: RouteGroup,
  deps: { logger: Logger; accessLog: AccessLog },
): NativeRoutes {
  const routes: NativeRoutes['routes'] = {};
  const preflight: NativeHandler | undefined =
    group.cors === 'any-origin' ? (request) => answerPreflight(request, deps.accessLog) : undefined;
  // Exact paths, as docs/api.md spells them (Bun's router does not fold a trailing slash).
  for (const route of list) {
    routes[route.path] = preflight
      ? { POST: serveNative(route, group, deps), OPTIONS: preflight }
      : { POST: serveNative(route, group, deps) };
  }
  return {
    routes,
    match: (request) => {
      const found = routes[pathOf(request.url)];
      return request.method === 'POST' ? found?.POST : request.method === 'OPTIONS' ? found?.OPTIONS : undefined;
    },
    docs: list.map((route) => ({
      method: 'POST',
      path: route.path,
      hooks: { body: route.body, response: route.response, detail: route.detail },
    })),
  };
}

function answerPreflight(request: Request, accessLog: AccessLog): Response {
  const startedAt = performance.now();
  const requestId = requestIdOf(request);
  accessLog.routeWriter('OPTIONS', pathOf(request.url))(requestId, 204, elapsedMs(startedAt));
  return preflightAnswer(requestId);
}

function serveNative(
  route: NativeRoute,
  group: RouteGroup,
  deps: { logger: Logger; accessLog: AccessLog },
): NativeHandler {
  const { logger, accessLog } = deps;
  const schema = TypeCompiler.Compile(route.body);
  const writeLog = accessLog.routeWriter('POST', route.path);
  // The compiled check of a flat schema never descends into a value: see BodyRules.flatSchema.
  const rules = { ...group.body, flatSchema: true };
  const cors = corsHeaders(group.cors);
  const { concerns } = group;
  // The 200 answer's headers, kept in one Headers object per route: `new Response` copies
  // them, so only the request id is set per call. Converting a fresh header object on every
  // answer cost about 0.3 µs more (docs/performance.md, "Where the time goes").
  const okStatus = route.status ?? 200;
  const okHeaders = new Headers(
    okStatus === 204
      ? { ...cors, 'x-request-id': '' }
      : { 'content-type': 'application/json', ...cors, 'x-request-id': '' },
  );
  const failureHeaders = (requestId: string, extra: Record<string, string> | undefined) => ({
    'content-type': 'application/json',
    ...cors,
    'x-request-id': requestId,
    ...extra,
  });
  return async (request) => {
    const startedAt = performance.now();
    const requestId = requestIdOf(request);
    accessLog.begin(request);
    let status: number = okStatus;
    let text: string;
    let headers: Record<string, string> | undefined;
    try {
      // Read, then parse: one awaited promise (Bun's own) on the hot path.
      const body = parseJsonText(await readBodyText(request, rules), request.headers.get('content-type') ?? '', rules);
      if (!schema.Check(body)) throw schemaFailure([...schema.Errors(body)]);
      route.refine?.(body);
      // Awaited only when a concern returned a promise: a synchronous limit adds no tick.
      const pending = concerns.length > 0 ? runConcerns(concerns, request, body) : undefined;
      if (pending !== undefined) await pending;
      const answer = route.answer(body, request);
      text = typeof answer === 'string' ? answer : await answer;
    } catch (error) {
      const failure = clientClosedAnswer(request) ?? errorAnswer(error, requestId, logger);
      status = failure.status;
      text = JSON.stringify(failure.body);
      headers = failure.headers;
    }
    writeLog(requestId, accessLog.settle(request, status), elapsedMs(startedAt));
    if (status !== okStatus) return new Response(text, { status, headers: failureHeaders(requestId, headers) });
    okHeaders.set('x-request-id', requestId);
    return new Response(okStatus === 204 ? null : text, { status: okStatus, headers: okHeaders });
  };
}
