import { AppError, type ErrorBody, errorBody, invalidRequest } from '../errors.ts';
import { type Fault, faultOf } from '../db/faults.ts';
import type { Logger } from '../logger.ts';
import { CLIENT_CLOSED } from './access-log.ts';

/** One schema violation as TypeBox reports it (Elysia's `error.all` holds the same). */
export interface SchemaError {
  path?: string;
  message?: string;
}

/** 400 `invalid_request` naming the first offending field, with up to 10 in `details`. */
export function schemaFailure(errors: SchemaError[] | undefined): AppError {
  const first = errors?.[0];
  const fieldOf = (e: SchemaError) => (e.path ?? '').replace(/^\//, '').replaceAll('/', '.');
  const message = first
    ? `${fieldOf(first) || 'body'}: ${first.message ?? 'invalid value'}.`
    : 'The request does not match the expected shape.';
  return invalidRequest(
    message,
    errors?.slice(0, 10).map((e) => ({ field: fieldOf(e), message: e.message ?? 'invalid value' })),
  );
}

/** Our own answer failed its schema: an error naming where, never the answer's values. */
export function answerSchemaBug(errors: SchemaError[] | undefined): Error {
  const first = errors?.[0];
  return new Error(`an answer failed its own schema at ${first?.path || '/'}: ${first?.message ?? 'invalid value'}`);
}

export interface ErrorAnswer {
  status: number;
  body: ErrorBody;
  /** Extra headers some refusals carry (`Retry-After`). */
  headers?: Record<string, string>;
}

/**
 * What any route answers for a failure: an `AppError` as its envelope; a fault of the
 * database (`faultOf`) as 503 `not_ready` or `storage_full` with `Retry-After`, its cause
 * logged; anything else is our bug, a 500 `internal` whose details go to the log under
 * the request id, never to the caller. `now` (ms) is the clock of the fault log.
 */
export function errorAnswer(
  error: unknown,
  requestId: string,
  logger: Logger,
  now: number = performance.now(),
): ErrorAnswer {
  if (error instanceof AppError) return appErrorAnswer(error);
  const fault = faultOf(error);
  if (fault) {
    logFault(logger, requestId, fault, now);
    return appErrorAnswer(fault.error);
  }
  logger.error('unhandled error', {
    requestId,
    error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    stack: error instanceof Error ? error.stack : undefined,
  });
  return {
    status: 500,
    body: errorBody('internal', `Something went wrong on our side. Quote request id ${requestId} when reporting it.`),
  };
}

function appErrorAnswer(error: AppError): ErrorAnswer {
  const headers = Object.keys(error.headers).length > 0 ? error.headers : undefined;
  return { status: error.status, body: error.body(), headers };
}

/** A cause is logged at most this often: an outage fails every request, and each would log it. */
const FAULT_LOG_INTERVAL_MS = 1000;

interface FaultSeen {
  /** When its last line was written. */
  at: number;
  /** Requests answered for it since that line. */
  repeats: number;
}

// One record per logger, so the native and the Elysia routes of a server share it.
const faultsSeen = new WeakMap<Logger, Map<string, FaultSeen>>();

/** One line per cause and second, counting the answers in between (`repeats`). */
function logFault(logger: Logger, requestId: string, fault: Fault, now: number): void {
  let seen = faultsSeen.get(logger);
  if (!seen) {
    seen = new Map();
    faultsSeen.set(logger, seen);
  }
  const last = seen.get(fault.cause);
  if (last && now - last.at < FAULT_LOG_INTERVAL_MS) {
    last.repeats += 1;
    return;
  }
  logger.error(`database fault: answered 503 ${fault.error.code}`, {
    requestId,
    cause: fault.cause,
    repeats: last?.repeats ?? 0,
  });
  // Causes are few (a driver's messages); the bound only guards against a varying one.
  if (seen.size >= 100) seen.clear();
  seen.set(fault.cause, { at: now, repeats: 0 });
}

/**
 * A request whose client disconnected before the answer (Bun aborts its signal): the
 * failure to read its body is the client's leaving, not a server error or a bad request.
 * Logged with nginx's status 499; nobody reads the body.
 */
export function clientClosedAnswer(request: Request): ErrorAnswer | null {
  if (!request.signal.aborted) return null;
  return { status: CLIENT_CLOSED, body: errorBody('invalid_request', 'The client closed the connection.') };
}
