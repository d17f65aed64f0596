import type { PullOutcome } from '../../src/webhook/outcomes.ts';

/** What each webhook outcome (docs/webhooks.md) means for the owner, in one sentence. */
const OUTCOME_EXPLANATIONS: Readonly<Record<PullOutcome, string>> = {
  ok: 'the webhook answered with a JSON object',
  timeout: 'no complete answer within 5 s (lookup, connect, headers and body together)',
  http_error: 'the webhook answered with an HTTP error status',
  redirect: 'the webhook answered with a redirect, which is not followed',
  invalid_json: 'the answer was not valid JSON',
  not_object: 'the answer was JSON but not an object',
  too_large: 'the answer was larger than 256 KiB',
  blocked_address: 'the host resolves to an address that is not public, or the port is not allowed',
  bad_scheme: 'the URL is not http or https',
  unreachable: 'the host could not be resolved or connected to',
  plan_required: 'webhooks need the Extra plan; no call was made',
  busy: 'too many webhook calls in flight; no call was made and widgets got their defaults',
  capped: 'over your pulls-per-second cap (calc limits); no call was made and widgets got their defaults',
  no_webhook: 'no webhook is configured for this calculator',
};

export function explainOutcome(outcome: string): string {
  const why = (OUTCOME_EXPLANATIONS as Readonly<Record<string, string>>)[outcome];
  return why ? `${outcome} (${why})` : outcome;
}
