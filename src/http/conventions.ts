import { Elysia } from 'elysia';
import { AppError, errorBody } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { declaredTooLarge, parseJsonBody, payloadTooLarge } from './body.ts';
import { internalFailure, schemaFailure, type SchemaError } from './failures.ts';
import { pathOf } from './path.ts';
import type { RequestLog } from './request-log.ts';

/** Paths that third-party pages call from any origin: access is decided by the domain check. */
const PUBLIC_CORS = /^\/(v1\/widget\/|v1\/calculators(\/|$)|widget\.js$)/;

/**
 * The HTTP conventions every route shares (contract §2): request ids and log lines,
 * CORS for public routes, the 64 KiB body cap, JSON (or text/plain on widget routes)
 * bodies, and one error envelope for every failure.
 */
export function httpConventions(deps: { logger: Logger; requestLog: RequestLog }) {
  const { logger, requestLog } = deps;
  return new Elysia()
    .onRequest(({ request, set }) => {
      set.headers['x-request-id'] = requestLog.start(request);
      if (PUBLIC_CORS.test(pathOf(request.url))) {
        set.headers['access-control-allow-origin'] = '*';
        if (request.method === 'OPTIONS') {
          set.headers['access-control-allow-methods'] = 'GET, POST, OPTIONS';
          set.headers['access-control-allow-headers'] = 'Content-Type';
          set.headers['access-control-max-age'] = '86400';
          // An answer from onRequest skips the after-response hooks: log it here.
          requestLog.finish(request, 204);
          return new Response(null, { status: 204, headers: set.headers as Record<string, string> });
        }
      }
      if (declaredTooLarge(request)) {
        requestLog.finish(request, 413);
        return new Response(JSON.stringify(payloadTooLarge().body()), {
          status: 413,
          headers: { ...(set.headers as Record<string, string>), 'content-type': 'application/json' },
        });
      }
    })
    .onParse({ as: 'global' }, ({ request, contentType }) =>
      parseJsonBody(request, contentType, { widget: pathOf(request.url).startsWith('/v1/widget/') }),
    )
    .onError({ as: 'global' }, ({ code, error, set, request }) => {
      requestLog.markDone(request);
      // Elysia wraps what a body parser throws; ours throws AppErrors (413, 400).
      const failure = code === 'PARSE' && error.cause instanceof AppError ? error.cause : error;
      if (failure instanceof AppError) {
        set.status = failure.status;
        Object.assign(set.headers, failure.headers);
        return failure.body();
      }
      // An answer that fails its own schema is our bug, not the client's.
      const ourBug = code === 'VALIDATION' && (error as { type?: string }).type === 'response';
      switch (ourBug ? 'UNKNOWN' : code) {
        case 'VALIDATION':
          set.status = 400;
          return schemaFailure((error as { all?: SchemaError[] }).all);
        case 'PARSE':
          set.status = 400;
          return errorBody('invalid_request', 'The request body could not be parsed as JSON.');
        case 'NOT_FOUND':
          set.status = 404;
          return errorBody('not_found', `No route for ${request.method} ${pathOf(request.url)}.`);
        default:
          set.status = 500;
          return internalFailure(logger, requestLog.idOf(request), error);
      }
    })
    .onAfterHandle({ as: 'global' }, ({ request }) => {
      requestLog.markDone(request);
    })
    .onAfterResponse({ as: 'global' }, ({ request, set, responseValue }) => {
      // A handler that returns a Response (304, 204, the load answer) sets its own status.
      const status =
        responseValue instanceof Response ? responseValue.status : typeof set.status === 'number' ? set.status : 200;
      requestLog.finish(request, status);
    });
}
