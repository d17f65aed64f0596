import type { ErrorCode } from '../errors.ts';

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
  calculator_not_found: 'No calculator has this id (`GET /v1/calculators` lists them).',
  domain_not_found: 'The account has no such domain or pending request.',
  not_found: 'No route has this method and path.',
  email_taken: 'An account with this email exists: sign in instead.',
  payload_too_large: 'The body is over 64 KiB.',
  invalid_webhook_url: 'The webhook URL is refused: not http(s), or it resolves to a private address.',
  quota_exceeded: "The account has used this month's widget loads.",
  too_many_pending_domains: 'The account has 20 pending domain requests; approve or remove some.',
  rate_limited: 'Too many requests from this client; wait for `Retry-After` seconds.',
  internal: 'A bug on the server: quote the request id from the message when reporting it.',
  not_ready: 'The server cannot reach its database.',
};
