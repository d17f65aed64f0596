import { errorBody, type ErrorBody } from '../errors.ts';
import type { Logger } from '../logger.ts';

/** One schema violation as TypeBox reports it (Elysia's `error.all` holds the same). */
export interface SchemaError {
  path?: string;
  message?: string;
}

/** 400 `invalid_request` naming the first offending field, with up to 10 in `details`. */
export function schemaFailure(errors: SchemaError[] | undefined): ErrorBody {
  const first = errors?.[0];
  const fieldOf = (e: SchemaError) => (e.path ?? '').replace(/^\//, '').replaceAll('/', '.');
  const message = first
    ? `${fieldOf(first) || 'body'}: ${first.message ?? 'invalid value'}.`
    : 'The request does not match the expected shape.';
  return errorBody(
    'invalid_request',
    message,
    errors?.slice(0, 10).map((e) => ({ field: fieldOf(e), message: e.message ?? 'invalid value' })),
  );
}

/** 500 `internal`: the details go to the log under the request id, never to the caller. */
export function internalFailure(logger: Logger, requestId: string, error: unknown): ErrorBody {
  logger.error('unhandled error', {
    requestId,
    error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    stack: error instanceof Error ? error.stack : undefined,
  });
  return errorBody('internal', `Something went wrong on our side. Quote request id ${requestId} when reporting it.`);
}
