/**
 * The one catalogue of error codes and the one error envelope
 * (`{"error": {"code", "message", "details?"}}`) that every route answers with.
 */

export const ERROR_STATUS = {
  invalid_request: 400,
  invalid_definition: 400,
  unauthorized: 401,
  invalid_api_key: 401,
  invalid_credentials: 401,
  plan_required: 403,
  domain_not_registered: 403,
  domain_pending: 403,
  origin_mismatch: 403,
  signup_disabled: 403,
  plan_limit: 403,
  register_domain_disabled: 403,
  results_disabled: 403,
  password_required: 403,
  calculator_not_found: 404,
  domain_not_found: 404,
  not_found: 404,
  endpoint_not_found: 404,
  event_not_found: 404,
  result_not_found: 404,
  email_taken: 409,
  calculator_exists: 409,
  endpoint_disabled: 409,
  payload_too_large: 413,
  invalid_webhook_url: 422,
  quota_exceeded: 429,
  too_many_pending_domains: 429,
  rate_limited: 429,
  cap_reached: 429,
  internal: 500,
  not_ready: 503,
  storage_full: 503,
  busy: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: unknown };
}

/** A failure a service reports on purpose; the error handler turns it into the envelope. */
export class AppError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
    this.headers = headers;
  }

  body(): ErrorBody {
    return errorBody(this.code, this.message, this.details);
  }
}

export function errorBody(code: ErrorCode, message: string, details?: unknown): ErrorBody {
  return details === undefined ? { error: { code, message } } : { error: { code, message, details } };
}

export function invalidRequest(message: string, details?: unknown): AppError {
  return new AppError('invalid_request', message, details);
}

/** 429 `rate_limited` with the `Retry-After` a client should wait. */
export function rateLimited(message: string, retryAfterSeconds: number): AppError {
  return new AppError('rate_limited', `${message} Try again in ${retryAfterSeconds} seconds.`, undefined, {
    'Retry-After': String(retryAfterSeconds),
  });
}

/** A refusal for a fault of the server's storage, not of the request. */
export type UnavailableCode = 'not_ready' | 'storage_full';

/**
 * Seconds a client should wait before it tries again: a database that restarts or a
 * connection that is re-made takes about a second; a full disk waits for its operator.
 */
const RETRY_AFTER_SECONDS: Readonly<Record<UnavailableCode, number>> = { not_ready: 1, storage_full: 30 };

/** 503 `not_ready` or `storage_full`, with the `Retry-After` a client should wait. */
export function unavailable(code: UnavailableCode, message: string): AppError {
  return new AppError(code, message, undefined, { 'Retry-After': String(RETRY_AFTER_SECONDS[code]) });
}
