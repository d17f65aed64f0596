/**
 * How one guarded webhook fetch ends (docs/webhooks.md, "Limits and failures"): a fetch never
 * throws, every failure is one of these.
 */
const FETCH_OUTCOMES = [
  'ok',
  'timeout',
  'http_error',
  'redirect',
  'invalid_json',
  'not_object',
  'too_large',
  'blocked_address',
  'bad_scheme',
  'unreachable',
] as const;

export type FetchOutcome = (typeof FETCH_OUTCOMES)[number];

/** Every outcome of a pre-fill pull: a fetch's, or why no fetch was made. */
export const PULL_OUTCOMES = [...FETCH_OUTCOMES, 'plan_required', 'busy', 'no_webhook'] as const;

export type PullOutcome = (typeof PULL_OUTCOMES)[number];

/** Outcomes that mean there was no webhook to call: not counted as calls in usage. */
export const NOT_CALLED: ReadonlySet<PullOutcome> = new Set<PullOutcome>(['plan_required', 'no_webhook']);
