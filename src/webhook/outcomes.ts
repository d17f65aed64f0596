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

/**
 * Pulls that were due but skipped, so no call was made: `busy` (the calls in flight are at
 * their cap) and `capped` (the owner's `pullsPerSecond`). The load answers its defaults;
 * usage reports them apart from calls (docs/api.md, "Usage history").
 */
export const SKIP_REASONS = ['busy', 'capped'] as const;

export type SkipReason = (typeof SKIP_REASONS)[number];

/** Every outcome of a pre-fill pull: a fetch's, or why no fetch was made. */
export const PULL_OUTCOMES = [...FETCH_OUTCOMES, 'plan_required', ...SKIP_REASONS, 'no_webhook'] as const;

export type PullOutcome = (typeof PULL_OUTCOMES)[number];

/** Outcomes that mean there was no webhook to call: neither calls nor skipped pulls in usage. */
export const NOT_CALLED: ReadonlySet<PullOutcome> = new Set<PullOutcome>(['plan_required', 'no_webhook']);

const SKIPPED: ReadonlySet<PullOutcome> = new Set<PullOutcome>(SKIP_REASONS);

/** Whether a pull's outcome means it was skipped (no call was made). */
export const isSkipped = (outcome: PullOutcome): outcome is SkipReason => SKIPPED.has(outcome);
