import { MAX_PENDING_DOMAINS } from '../domains/status.ts';
import type { ErrorCode } from '../errors.ts';
import { EXAMPLE } from './model.ts';
import { calculatorLimitReached, DEFAULT_CALCULATOR_LIMITS, DEFAULT_PLAN, webhookPlanRequired } from '../plans.ts';
import { EXAMPLE_DEFINITION } from '../definition/example.ts';
import { refusalMessage } from '../definition/problems.ts';
import { validateDefinition } from '../definition/validate.ts';

/**
 * What each error code means and what the caller can do, as the API reference shows it
 * (docs/api.md, "Errors", says the same). Keyed by the catalogue in src/errors.ts, so a
 * new code cannot go undocumented.
 */
export const ERROR_DOCS: Readonly<Record<ErrorCode, string>> = {
  invalid_request: 'The body, a parameter or a header is malformed; `message` names the first bad field.',
  invalid_definition:
    'A calculator\'s definition breaks its rules (docs/calculators.md, "Validation"); `details` lists every problem as `{path, message, position?}`.',
  unauthorized: 'No bearer token, or one that is expired or revoked: sign in again.',
  invalid_api_key: 'The widget API key is unknown (rotated, or mistyped in the embed snippet).',
  invalid_credentials: 'Email or password is wrong (the same answer for both).',
  plan_required:
    "The account's plan does not include this feature (webhooks need Extra; results and their endpoint need Base or Extra).",
  domain_not_registered: "The page's origin is not on the account's domain list.",
  domain_pending: "The page's origin asked to be added and waits for the owner's approval.",
  origin_mismatch: "The `domain` in the body does not match the browser's Origin header.",
  signup_disabled: 'Sign-up is turned off on this server; its operator creates accounts.',
  plan_limit:
    'The account has as many calculators of its own as its plan allows; `message` names the plan that allows more. Deleting one frees its place.',
  register_domain_disabled: 'The account owner turned off requests from pages to register their origin.',
  results_disabled:
    "Visitors cannot send results of this calculator: its owner has not turned results on (or the account's plan has no results).",
  password_required:
    'The session is older than the few minutes that reveal or replace the signing secret: send the `password`.',
  calculator_not_found: 'No calculator has this id (`GET /v1/calculators` lists them).',
  domain_not_found: 'The account has no such domain or pending request.',
  not_found: 'No route has this method and path.',
  endpoint_not_found: 'The account has no results endpoint: set one with `PUT /v1/account/results-endpoint`.',
  event_not_found: 'The results endpoint has no event with this id (events are kept 30 days).',
  result_not_found: 'The account has no result with this id (deleted by the owner, or past the retention).',
  email_taken: 'An account with this email exists: sign in instead.',
  calculator_exists:
    'The account has a calculator with this id, or it is the id of a catalogue calculator: choose another.',
  endpoint_disabled:
    'The results endpoint is disabled (`disabledReason` says why); save it again to turn it on, then queued events resume.',
  payload_too_large: 'The body is over 64 KiB.',
  invalid_webhook_url: 'The webhook URL is refused: not http(s), or it resolves to a private address.',
  quota_exceeded: "The account has used this month's widget loads (or, on `submit`, this month's submissions).",
  too_many_pending_domains: `The account has ${MAX_PENDING_DOMAINS} pending domain requests; approve or remove some.`,
  rate_limited: 'Too many requests from this client; wait for `Retry-After` seconds.',
  cap_reached:
    'A daily cap the account owner set is reached (loads per day, or per day from one origin); it resets at 00:00 UTC.',
  internal: 'A bug on the server: quote the request id from the message when reporting it.',
  not_ready:
    'The server cannot reach its database (down, restarting, hung or read-only) or is shutting down; try again after `Retry-After` seconds.',
  storage_full:
    "The server's disk is full, so nothing can be saved; reads still work. Try again after `Retry-After` seconds.",
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
  invalid_definition: definitionRefusal(),
  unauthorized: { message: 'The session token is invalid or has expired. Sign in again.' },
  invalid_api_key: {
    message: 'The API key is not valid. Copy it again from `calc embed` or your account page.',
  },
  invalid_credentials: { message: 'Email or password is wrong.' },
  plan_required: { message: webhookPlanRequired({ email: EXAMPLE.email, plan: DEFAULT_PLAN }) },
  plan_limit: {
    message: calculatorLimitReached({ email: EXAMPLE.email, plan: DEFAULT_PLAN }, DEFAULT_CALCULATOR_LIMITS, 1),
  },
  domain_not_registered: { message: `${EXAMPLE.origin} is not registered for this API key.` },
  domain_pending: { message: `${EXAMPLE.origin} is waiting for the account owner's approval.` },
  origin_mismatch: { message: `The request comes from https://evil.example, not from ${EXAMPLE.origin}.` },
  signup_disabled: {
    message:
      'Sign-up is disabled on this server. Whoever runs it creates accounts with `calc admin accounts create --email …`, or starts it without --disable-signup.',
  },
  register_domain_disabled: {
    message: 'The owner of this API key does not accept requests to register an origin; ask them to add it.',
  },
  results_disabled: { message: 'The owner of this calculator does not accept results (bmi).' },
  password_required: {
    message: 'Replacing the signing secret needs your password: this session was signed in more than 300 seconds ago.',
  },
  calculator_not_found: { message: 'There is no calculator "bmi-kids".' },
  domain_not_found: { message: 'https://old.shop.example is not registered for this account.' },
  not_found: { message: 'No route for GET /v1/calculator.' },
  endpoint_not_found: {
    message: 'This account has no results endpoint. Set one with PUT /v1/account/results-endpoint.',
  },
  event_not_found: { message: 'There is no event msg_2k9v0c1x8q7w6e5r4t3y2u1i of this account.' },
  result_not_found: { message: 'There is no result res_7Hq2mXw9LpA4vB1cZk3N of this account.' },
  email_taken: { message: 'An account with this email already exists.' },
  calculator_exists: { message: 'You already have a calculator "paint-quote".' },
  endpoint_disabled: {
    message:
      'The results endpoint is disabled: The endpoint answered 410 Gone at 2026-03-14T09:21:07.164Z. Save it again (PUT /v1/account/results-endpoint) to turn it on.',
  },
  payload_too_large: { message: 'Request bodies are limited to 64 KiB.' },
  invalid_webhook_url: {
    message: 'config.webhook.url is refused: scheme ftp: is not allowed; use http or https.',
  },
  quota_exceeded: { message: 'This account has used its 1000 widget loads for this month.' },
  too_many_pending_domains: {
    message: `This account already has ${MAX_PENDING_DOMAINS} pending domain requests; the owner must approve or remove some first.`,
  },
  rate_limited: { message: 'Too many failed sign-ins from this address. Try again in 42 seconds.' },
  cap_reached: {
    message: `The owner of this account allows 500 widget loads a day from ${EXAMPLE.origin}; today's are used.`,
  },
  internal: {
    message: `Something went wrong on our side. Quote request id ${EXAMPLE.requestId} when reporting it.`,
  },
  not_ready: { message: 'The database does not answer; try again in a moment.' },
  storage_full: { message: "The server's disk is full, so this change cannot be saved; try again later." },
  busy: { message: 'The server is busy checking passwords. Try again in a second.' },
};

/** The refusal of a broken copy of the reference's example definition, as the validator words it. */
function definitionRefusal(): { message: string; details: unknown } {
  const [total, days] = EXAMPLE_DEFINITION.outputs;
  const broken = {
    ...EXAMPLE_DEFINITION,
    title: '',
    outputs: [
      { ...total, formula: 'surface * finsh' },
      { ...days, key: 'area' },
    ],
  };
  const details = validateDefinition(broken);
  return { message: refusalMessage(details), details };
}
