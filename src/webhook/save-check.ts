import type { AddressPolicy } from './address-policy.ts';
import { DEFAULT_TIMEOUT_MS } from './guarded-fetch.ts';
import { isWebhookUrlError, parseWebhookUrl, resolveAndCheck, type Resolver } from './url-check.ts';

/**
 * Where a refused address is one of the machine's own: the way to test against a local
 * server (docs/webhooks.md, "Test locally").
 */
const LOCAL_TEST_HINT =
  ' To test against a server on your own machine, bind it to 127.0.0.2 and whoever runs calc allows that ' +
  'address with CALC_WEBHOOK_ALLOW_CIDRS=127.0.0.2/32 (comma-separated CIDR blocks); use http://127.0.0.2:PORT, ' +
  'not localhost: see "Test locally" in docs/webhooks.md.';

/**
 * The save-time URL check of every outgoing call's URL: the same parse, lookup and address
 * rules as each call makes again. Answers why the URL is refused (the reason, with the local
 * test hint for a refused address), or null.
 */
export async function urlRefusal(
  raw: string,
  deps: { resolve: Resolver; policy: AddressPolicy },
): Promise<string | null> {
  const target = parseWebhookUrl(raw);
  if (isWebhookUrlError(target)) return withHint(target.reason, target.outcome);
  const checked = await resolveAndCheck(target, {
    resolve: deps.resolve,
    policy: deps.policy,
    signal: AbortSignal.timeout(DEFAULT_TIMEOUT_MS),
  });
  return checked.ok ? null : withHint(checked.reason, checked.outcome);
}

const withHint = (reason: string, outcome: string) =>
  `${reason}.${outcome === 'blocked_address' ? LOCAL_TEST_HINT : ''}`;
