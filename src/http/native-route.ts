import type { Static, TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { AppError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { parseJsonText, readBodyText } from './body.ts';
import { internalFailure, schemaFailure } from './failures.ts';
import type { RouteLike } from './openapi.ts';
import { pathOf } from './path.ts';
import type { RequestLog } from './request-log.ts';

/**
 * A public POST route that Bun's own router serves (`Bun.serve({ routes })`), without
 * Elysia's per-request hook pipeline. Used for the widget's verify and load, which every
 * embedding page calls: there the pipeline cost about 40% of the throughput. The route
 * keeps every convention the Elysia routes follow — request id, one log line, CORS for any
 * origin, the 64 KiB cap, JSON or text/plain bodies, the schema check, the error envelope.
 */
export interface NativeRoute<S extends TSchema = TSchema> {
  path: string;
  /** Checked before `answer` runs; also documents the route in /openapi.json. */
  body: S;
  /** Documentation only, as on Elysia routes: `response` schemas and `detail`. */
  response: Record<number, TSchema>;
  detail: NonNullable<RouteLike['hooks']['detail']>;
  /** The 200 answer as JSON text (callers pre-serialise what never changes). */
  answer(body: Static<S>, request: Request): string | Promise<string>;
}

type NativeHandler = (request: Request) => Promise<Response>;

export interface NativeRoutes {
  /** For `Bun.serve({ routes })`: other methods on these paths fall through to Elysia. */
  routes: Record<string, { POST: NativeHandler }>;
  /** What Bun's router would pick for this request, if anything (for `app.handle` callers). */
  match(request: Request): NativeHandler | undefined;
  /** For the OpenAPI document. */
  docs: RouteLike[];
}

export function nativeRoutes(list: NativeRoute[], deps: { logger: Logger; requestLog: RequestLog }): NativeRoutes {
  const routes: NativeRoutes['routes'] = {};
  // Exact paths, as the contract spells them (Bun's router does not fold a trailing slash).
  for (const route of list) routes[route.path] = { POST: serveNative(route, deps) };
  return {
    routes,
    match: (request) => (request.method === 'POST' ? routes[pathOf(request.url)]?.POST : undefined),
    docs: list.map((route) => ({
      method: 'POST',
      path: route.path,
      hooks: { body: route.body, response: route.response, detail: route.detail },
    })),
  };
}

// The widget's body schema is flat (three strings): see BodyRules.flatSchema.
const WIDGET_BODY = { widget: true, flatSchema: true };

function serveNative(route: NativeRoute, deps: { logger: Logger; requestLog: RequestLog }): NativeHandler {
  const { logger, requestLog } = deps;
  const schema = TypeCompiler.Compile(route.body);
  const writeLog = requestLog.routeWriter('POST', route.path);
  return async (request) => {
    const startedAt = performance.now();
    const requestId = requestLog.idFor(request);
    let status = 200;
    let text: string;
    let headers: Record<string, string> | undefined;
    try {
      // Read, then parse: one awaited promise (Bun's own) on the hot path.
      const body = parseJsonText(
        await readBodyText(request, WIDGET_BODY),
        request.headers.get('content-type') ?? '',
        WIDGET_BODY,
      );
      if (schema.Check(body)) {
        const answer = route.answer(body, request);
        text = typeof answer === 'string' ? answer : await answer;
      } else {
        status = 400;
        text = JSON.stringify(schemaFailure([...schema.Errors(body)]));
      }
    } catch (error) {
      if (error instanceof AppError) {
        status = error.status;
        text = JSON.stringify(error.body());
        headers = error.headers;
      } else {
        status = 500;
        text = JSON.stringify(internalFailure(logger, requestId, error));
      }
    }
    writeLog(requestId, status, requestLog.elapsed(startedAt));
    const answerHeaders = {
      'content-type': 'application/json',
      'access-control-allow-origin': '*',
      'x-request-id': requestId,
    };
    // Only some errors add headers (Retry-After): the common answer skips the copy.
    return new Response(text, {
      status,
      headers: headers === undefined ? answerHeaders : { ...answerHeaders, ...headers },
    });
  };
}
