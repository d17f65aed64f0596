import type { Static } from '@sinclair/typebox';
import type { CalculatorDefinition } from '../../calculators/definition.ts';
import type { Plan } from '../../plans.ts';
import type { AccountRow, AccountsStore, WidgetLookup } from '../../db/accounts-store.ts';
import type { DomainsStore } from '../../db/domains-store.ts';
import { AppError, invalidRequest } from '../../errors.ts';
import type { WidgetLimit } from '../../http/rate-limit.ts';
import { requireCalculator } from '../../require-calculator.ts';
import { dayOf, periodOf, type UsageCounter } from '../../usage/counter.ts';
import { matchingOrigins, normaliseOrigin } from '../../domains/origin.ts';
import { type DomainJson, requestDomain } from '../domains/index.ts';
import type { WidgetRequest } from './model.ts';

export interface WidgetDeps {
  accounts: AccountsStore;
  domains: DomainsStore;
  usage: UsageCounter;
  quotas: Readonly<Record<Plan, number>>;
  now: () => Date;
  /** The per-client limit, or null when it is off. */
  limit: WidgetLimit | null;
}

/** The client a widget call counts for (nothing to work out when the limit is off). */
export function widgetClient(deps: Pick<WidgetDeps, 'limit'>, request: Request): string {
  return deps.limit === null ? '' : deps.limit.clientOf(request);
}

/** What a page sends to verify or load. */
type WidgetCall = Static<typeof WidgetRequest>;

const invalidApiKey = () =>
  new AppError('invalid_api_key', 'The API key is not valid. Copy it again from `calc embed` or your account page.');

/**
 * The account behind a public key, or 401; the call counted against the per-client limit
 * around the lookup (see {@link WidgetLimit}).
 */
async function accountForKey(deps: WidgetDeps, apiKey: string, client: string): Promise<AccountRow> {
  const counted = deps.limit === null || deps.limit.held(client, apiKey);
  const account = apiKey.startsWith('pk_') ? await deps.accounts.findByApiKey(apiKey) : undefined;
  if (!counted) deps.limit?.count(client, apiKey, account !== undefined);
  if (!account) throw invalidApiKey();
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
  if (sent !== origin)
    throw new AppError('origin_mismatch', `The request comes from ${originHeader}, not from ${origin}.`);
}

/** What the checks of the widget routes establish about a request. */
export interface AuthorisedWidget {
  account: AccountRow;
  calculator: CalculatorDefinition;
  origin: string;
}

/**
 * The checks both widget routes share, in the documented order (docs/api.md, "Order of checks"): per-client
 * limit → key → Origin header → registered domain → calculator. (The body's shape was checked by the route
 * schema.) The limit is taken before the lookup for a (client, key) pair the limiter holds, after it for the
 * others, once the key is known valid or not. Answers without a promise when the store does (SQLite): every
 * embedding page passes here, and each promise is a tick and an allocation.
 */
export function authoriseWidget(
  deps: WidgetDeps,
  request: WidgetCall,
  originHeader: string | null,
  client: string,
): AuthorisedWidget | Promise<AuthorisedWidget> {
  const origin = pageOrigin(request.domain);
  const counted = deps.limit === null || deps.limit.held(client, request.apiKey);
  if (!request.apiKey.startsWith('pk_')) {
    if (!counted) deps.limit?.count(client, request.apiKey, false);
    throw invalidApiKey();
  }
  // One store call answers both the key and the domain checks (one query on PostgreSQL);
  // they are still judged in order.
  const found = deps.accounts.widgetLookup(request.apiKey, matchingOrigins(origin));
  const uncounted = counted ? null : client;
  return found instanceof Promise
    ? found.then((lookup) => judge(deps, lookup, request, origin, originHeader, uncounted))
    : judge(deps, found, request, origin, originHeader, uncounted);
}

function judge(
  deps: WidgetDeps,
  found: WidgetLookup | undefined,
  request: WidgetCall,
  origin: string,
  originHeader: string | null,
  /** The client when the call is still to be counted. */
  uncounted: string | null,
): AuthorisedWidget {
  if (uncounted !== null) deps.limit?.count(uncounted, request.apiKey, found !== undefined);
  if (!found) throw invalidApiKey();
  const { account, domainStatus: status } = found;
  checkOriginHeader(origin, originHeader);
  if (status === 'pending')
    throw new AppError('domain_pending', `${origin} is waiting for the account owner's approval.`);
  if (status === undefined)
    throw new AppError('domain_not_registered', `${origin} is not registered for this API key.`);
  return { account, calculator: requireCalculator(request.calcId), origin };
}

/**
 * register-domain, in the same order as the other widget routes: body → per-client limit →
 * key → Origin header → the request itself (pending, or the existing status).
 */
export async function registerDomain(
  deps: WidgetDeps,
  request: { apiKey: string; domain: string },
  originHeader: string | null,
  client: string,
): Promise<DomainJson> {
  const origin = pageOrigin(request.domain);
  const account = await accountForKey(deps, request.apiKey, client);
  checkOriginHeader(origin, originHeader);
  return requestDomain(deps, account.id, origin);
}

/** The embedding page's own origin: a concrete origin, never a wildcard. */
function pageOrigin(domain: string): string {
  const { origin, wildcard } = normaliseOrigin(domain);
  if (wildcard) throw invalidRequest("domain must be the page's own origin, not a wildcard.");
  return origin;
}

/**
 * The quota check: with `load` (the calculator and page origin) it counts a load on
 * today's row (check and count are one step); without, for verify, it answers 429 at the
 * limit but uses nothing. A load whose month is already known is judged without a promise.
 */
export function useQuota(
  deps: WidgetDeps,
  account: AccountRow,
  load?: { calcId: string; origin: string },
): undefined | Promise<void> {
  const limit = deps.quotas[account.plan];
  const now = deps.now();
  if (load) {
    const allowed = deps.usage.tryCount(account.id, dayOf(now), limit, load.calcId, load.origin);
    if (typeof allowed !== 'boolean') return allowed.then((ok) => refuseOver(ok, limit));
    refuseOver(allowed, limit);
    return undefined;
  }
  const used = deps.usage.used(account.id, periodOf(now));
  if (typeof used !== 'number') return used.then((n) => refuseOver(n < limit, limit));
  refuseOver(used < limit, limit);
  return undefined;
}

function refuseOver(allowed: boolean, limit: number): void {
  if (!allowed) throw new AppError('quota_exceeded', `This account has used its ${limit} widget loads for this month.`);
}
