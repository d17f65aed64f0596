import { MAX_PENDING_DOMAINS } from '../domains/status.ts';
import type { ErrorCode } from '../errors.ts';
import { EXAMPLE } from './model.ts';
import { DEFAULT_PLAN, webhookPlanRequired } from '../plans.ts';

/**
 * What each error code means and what the caller can do, as the API reference shows it
 * (docs/api.md, "Errors", says the same). Keyed by the catalogue in src/errors.ts, so a
 * new code cannot go undocumented.
 */
export const ERROR_DOCS: Readonly<Record<ErrorCode, string>> = {
  invalid_request: 'The body, a parameter or a header is malformed; `message` names the first bad field.',
  unauthorized: 'No bearer token, or one that is expired or revoked: sign in again.',
  invalid_api_key: 'The widget API key is unknown (rotated, or mistyped in the embed snippet).',
  invalid_credentials: 'Email or password is wrong (the same answer for both).',
  plan_required: "The account's plan does not include this feature (webhooks need Extra).",
  domain_not_registered: "The page's origin is not on the account's domain list.",
  domain_pending: "The page's origin asked to be added and waits for the owner's approval.",
  origin_mismatch: "The `domain` in the body does not match the browser's Origin header.",
  signup_disabled: 'Sign-up is turned off on this server; its operator creates accounts.',
  password_required:
    'The session is older than the few minutes that reveal or replace the signing secret: send the `password`.',
  calculator_not_found: 'No calculator has this id (`GET /v1/calculators` lists them).',
  domain_not_found: 'The account has no such domain or pending request.',
  not_found: 'No route has this method and path.',
  email_taken: 'An account with this email exists: sign in instead.',
  payload_too_large: 'The body is over 64 KiB.',
  invalid_webhook_url: 'The webhook URL is refused: not http(s), or it resolves to a private address.',
  quota_exceeded: "The account has used this month's widget loads.",
  too_many_pending_domains: `The account has ${MAX_PENDING_DOMAINS} pending domain requests; approve or remove some.`,
  rate_limited: 'Too many requests from this client; wait for `Retry-After` seconds.',
  internal: 'A bug on the server: quote the request id from the message when reporting it.',
  not_ready: 'The server cannot reach its database.',
  busy: 'The server is checking as many passwords as it can; wait for `Retry-After` seconds.',
};

/**
 * An answer of each code as the server words it, for the reference's examples (the
 * `message` is the server's own text, with this reference's example values filled in).
 */
export const ERROR_EXAMPLES: Readonly<Record<ErrorCode, { message: string; details?: unknown }>> = {
  invalid_request: {
    message: 'password: Expected string length greater or equal to 10.',
    details: [{ field: 'password', message: 'Expected string length greater or equal to 10' }],
  },
  unauthorized: { message: 'The session token is invalid or has expired. Sign in again.' },
  invalid_api_key: {
    message: 'The API key is not valid. Copy it again from `calc embed` or your account page.',
  },
  invalid_credentials: { message: 'Email or password is wrong.' },
  plan_required: { message: webhookPlanRequired({ email: EXAMPLE.email, plan: DEFAULT_PLAN }) },
  domain_not_registered: { message: `${EXAMPLE.origin} is not registered for this API key.` },
  domain_pending: { message: `${EXAMPLE.origin} is waiting for the account owner's approval.` },
  origin_mismatch: { message: `The request comes from https://evil.example, not from ${EXAMPLE.origin}.` },
  signup_disabled: {
    message:
      'Sign-up is disabled on this server. Whoever runs it creates accounts with `calc admin accounts create --email …`, or starts it without --disable-signup.',
  },
  password_required: {
    message: 'Replacing the signing secret needs your password: this session was signed in more than 300 seconds ago.',
  },
  calculator_not_found: { message: 'There is no calculator "bmi-kids".' },
  domain_not_found: { message: 'https://old.shop.example is not registered for this account.' },
  not_found: { message: 'No route for GET /v1/calculator.' },
  email_taken: { message: 'An account with this email already exists.' },
  payload_too_large: { message: 'Request bodies are limited to 64 KiB.' },
  invalid_webhook_url: {
    message: 'config.webhook.url is refused: scheme ftp: is not allowed; use http or https.',
  },
  quota_exceeded: { message: 'This account has used its 1000 widget loads for this month.' },
  too_many_pending_domains: {
    message: `This account already has ${MAX_PENDING_DOMAINS} pending domain requests; the owner must approve or remove some first.`,
  },
  rate_limited: { message: 'Too many failed sign-ins from this address. Try again in 42 seconds.' },
  internal: {
    message: `Something went wrong on our side. Quote request id ${EXAMPLE.requestId} when reporting it.`,
  },
  not_ready: { message: 'The database does not answer; try again in a moment.' },
  busy: { message: 'The server is busy checking passwords. Try again in a second.' },
};
