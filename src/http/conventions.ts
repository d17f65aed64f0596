import { type AnyElysia, Elysia } from 'elysia';
import { AppError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { AccessLog } from './access-log.ts';
import { declaredTooLarge, parseJsonBody, payloadTooLarge } from './body.ts';
import { corsHeaders, preflightAnswer } from './cors.ts';
import { answerSchemaBug, clientClosedAnswer, errorAnswer, type SchemaError, schemaFailure } from './error-answer.ts';
import { pathOf } from './path.ts';
import type { RouteGroup } from './route-group.ts';
import { runConcerns } from './route-group.ts';

interface ConventionDeps {
  logger: Logger;
  accessLog: AccessLog;
}

/**
 * The rules every Elysia route follows whatever its group (docs/api.md, "Conventions"):
 * a request id echoed in `X-Request-Id`, one access-log line, and one error envelope for
 * every failure. The 64 KiB body cap is a group's (below), so that its 413 carries the
 * group's CORS headers like any other error.
 */
export function httpConventions(deps: ConventionDeps) {
  const { logger, accessLog } = deps;
  return new Elysia()
    .onRequest(({ request, set }) => {
      set.headers['x-request-id'] = accessLog.start(request);
    })
    .onError({ as: 'global' }, ({ code, error, set, request }) => {
      accessLog.markDone(request);
      const answer =
        clientClosedAnswer(request) ?? errorAnswer(asAppError(code, error, request), accessLog.idOf(request), logger);
      set.status = answer.status;
      if (answer.headers) Object.assign(set.headers, answer.headers);
      return answer.body;
    })
    .onAfterHandle({ as: 'global' }, ({ request }) => {
      accessLog.markDone(request);
    })
    .onAfterResponse({ as: 'global' }, ({ request, set, responseValue }) => {
      // A handler that returns a Response (304, 204, the load answer) sets its own status.
      const status =
        responseValue instanceof Response ? responseValue.status : typeof set.status === 'number' ? set.status : 200;
      accessLog.finish(request, status);
    });
}

/** Elysia's own failures in our catalogue's terms; anything unknown stays as it is (a 500). */
function asAppError(code: string | number, error: unknown, request: Request): unknown {
  // Elysia wraps what a body parser throws; ours throws AppErrors (413, 400).
  if (code === 'PARSE' && (error as Error).cause instanceof AppError) return (error as Error).cause;
  if (error instanceof AppError) return error;
  switch (code) {
    case 'VALIDATION':
      // An answer that fails its own schema is our bug, not the client's. Elysia's message
      // holds the whole answer (a token, a secret): only where it failed goes to the log.
      if ((error as { type?: string }).type === 'response')
        return answerSchemaBug((error as { all?: SchemaError[] }).all);
      return schemaFailure((error as { all?: SchemaError[] }).all);
    case 'PARSE':
      return new AppError('invalid_request', 'The request body could not be parsed as JSON.');
    case 'NOT_FOUND':
      return new AppError('not_found', `No route for ${request.method} ${pathOf(request.url)}.`);
    default:
      return error;
  }
}

/**
 * Mounts feature modules as one route group: the group's CORS policy on every answer
 * (errors included), its body rules, its per-group concerns, and preflight answers on
 * its paths when any origin may call them. Hooks declared here are local: they reach the
 * modules mounted here and nothing else.
 */
export function elysiaGroup(group: RouteGroup, modules: AnyElysia[]) {
  const cors = corsHeaders(group.cors);
  const instance = new Elysia()
    // The cap is checked on the declared size before anything is read (parseJsonBody).
    .onParse(({ request, contentType, set }) => {
      if (cors) Object.assign(set.headers, cors);
      return parseJsonBody(request, contentType, group.body);
    })
    // Routes without a body skip the parse step; a body they would not read is still refused.
    .onTransform(({ request, set }) => {
      if (cors) Object.assign(set.headers, cors);
      if (declaredTooLarge(request)) throw payloadTooLarge();
    });
  if (group.concerns.length > 0) {
    instance.onBeforeHandle(({ request, body }) => runConcerns(group.concerns, request, body));
  }
  for (const module of modules) instance.use(module);
  if (group.cors === 'any-origin') {
    const paths = new Set(instance.routes.map((route) => route.path));
    for (const path of paths)
      instance.options(path, ({ set }) => preflightAnswer(String(set.headers['x-request-id'])), {
        detail: { hide: true },
      });
  }
  return instance;
}
