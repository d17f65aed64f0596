import { getCalculator } from '../../calculators/index.ts';
import type { CalculatorDefinition } from '../../calculators/definition.ts';
import type { Plan } from '../../config.ts';
import type { AccountRow, AccountsStore } from '../../db/accounts-store.ts';
import type { DomainsStore } from '../../db/domains-store.ts';
import { AppError } from '../../errors.ts';
import { periodOf, type UsageCounter } from '../../usage/counter.ts';
import { normaliseOrigin } from '../domains/origin.ts';
import { originStatus } from '../domains/service.ts';

export interface WidgetDeps {
  accounts: AccountsStore;
  domains: DomainsStore;
  usage: UsageCounter;
  quotas: Readonly<Record<Plan, number>>;
  now: () => Date;
}

export interface WidgetRequest {
  apiKey: string;
  domain: string;
  calcId: string;
}

/** The account behind a public key, or 401. */
export function accountForKey(deps: Pick<WidgetDeps, 'accounts'>, apiKey: string): AccountRow {
  const account = apiKey.startsWith('pk_') ? deps.accounts.findByApiKey(apiKey) : undefined;
  if (!account) throw new AppError('invalid_api_key', 'The API key is not valid. Copy it again from `calc embed` or your account page.');
  return account;
}

/**
 * A browser always sends its real origin; a page claiming another origin in the body
 * is refused. Server-side callers send no Origin header and are judged by `domain`.
 */
export function checkOriginHeader(origin: string, originHeader: string | null): void {
  if (originHeader === null) return;
  let sent: string | null = null;
  try {
    sent = normaliseOrigin(originHeader).origin;
  } catch {
    sent = null;
  }
  if (sent !== origin) throw new AppError('origin_mismatch', `The request comes from ${originHeader}, not from ${origin}.`);
}

/**
 * The checks both widget routes share, in the contract's order: key → Origin header →
 * registered domain → calculator. (The body's shape was checked by the route schema.)
 */
export function authoriseWidget(deps: WidgetDeps, request: WidgetRequest, originHeader: string | null): { account: AccountRow; calculator: CalculatorDefinition } {
  const { origin, wildcard } = normaliseOrigin(request.domain);
  if (wildcard) throw new AppError('invalid_request', 'domain must be the page\'s own origin, not a wildcard.');
  const account = accountForKey(deps, request.apiKey);
  checkOriginHeader(origin, originHeader);
  const status = originStatus(deps, account.id, origin);
  if (status === 'pending') throw new AppError('domain_pending', `${origin} is waiting for the account owner's approval.`);
  if (status === 'none') throw new AppError('domain_not_registered', `${origin} is not registered for this API key.`);
  const calculator = getCalculator(request.calcId);
  if (!calculator) throw new AppError('calculator_not_found', `There is no calculator "${request.calcId}".`);
  return { account, calculator };
}

/**
 * The quota check: `count` for a load (check and count are one step), without it for
 * verify, which answers 429 at the limit but does not use a load.
 */
export function useQuota(deps: WidgetDeps, account: AccountRow, count: boolean): void {
  const limit = deps.quotas[account.plan];
  const period = periodOf(deps.now());
  const allowed = count ? deps.usage.tryCount(account.id, period, limit) : deps.usage.used(account.id, period) < limit;
  if (!allowed) throw new AppError('quota_exceeded', `This account has used its ${limit} widget loads for this month.`);
}
