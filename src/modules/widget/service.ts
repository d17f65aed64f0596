import type { Static } from '@sinclair/typebox';
import type { Template } from '../../calculators/index.ts';
import type { Plan } from '../../plans.ts';
import type { AccountRow, AccountsStore, WidgetLookup } from '../../db/accounts-store.ts';
import type { DomainsStore } from '../../db/domains-store.ts';
import { AppError, invalidRequest } from '../../errors.ts';
import { calculatorExists, requireCalculator } from '../../require-calculator.ts';
import { dayOf, type LoadVerdict, type UsageCounter } from '../../usage/counter.ts';
import type { WidgetEvent } from '../../usage/funnel.ts';
import { isCountedRefusal, type RefusalReason } from '../../usage/refusals.ts';
import { matchingOrigins, normaliseOrigin } from '../../domains/origin.ts';
import { pendingCutoff } from '../../domains/status.ts';
import { type DomainJson, requestDomain } from '../domains/index.ts';
import type { WidgetRequest } from './model.ts';

export interface WidgetDeps {
  accounts: AccountsStore;
  domains: DomainsStore;
  usage: UsageCounter;
  quotas: Readonly<Record<Plan, number>>;
  now: () => Date;
}

/** What a page sends to verify or load. */
type WidgetCall = Static<typeof WidgetRequest>;

const invalidApiKey = () =>
  new AppError('invalid_api_key', 'The API key is not valid. Copy it again from `calc embed` or your account page.');

/** The account behind a public key, or 401. */
async function accountForKey(deps: Pick<WidgetDeps, 'accounts'>, apiKey: string): Promise<AccountRow> {
  const account = apiKey.startsWith('pk_') ? await deps.accounts.findByApiKey(apiKey) : undefined;
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
  calculator: Template;
  origin: string;
  /** When the call arrived: one clock reading for every step of it. */
  now: Date;
}

/**
 * Counts a refused widget call in its owner's usage (docs/api.md, "Usage history"). Only
 * calculators that exist are counted: the id is the caller's choice, and strangers must
 * not be able to fill an owner's usage with made-up ones.
 */
function countRefusal(deps: Refusals, accountId: string, calcId: string, now: Date, reason: RefusalReason) {
  if (calculatorExists(accountId, calcId)) deps.usage.countRefused(accountId, dayOf(now), calcId, reason);
}

/** Counts `error` as a refusal when it is one usage counts; answers it, to throw. */
function refused(deps: Refusals, accountId: string, calcId: string, now: Date, error: AppError) {
  if (isCountedRefusal(error.code)) countRefusal(deps, accountId, calcId, now, error.code);
  return error;
}

/**
 * Counts a widget call refused before its key was looked up (the per-client limit) in the
 * usage of the key's owner. The lookup is the caller's, off the answer's path.
 */
export function countEarlyRefusal(
  deps: Pick<WidgetDeps, 'usage' | 'now'>,
  accountId: string,
  calcId: string,
  reason: RefusalReason,
): void {
  countRefusal(deps, accountId, calcId, deps.now(), reason);
}

/**
 * The checks both widget routes share, in the documented order (docs/api.md, "Order of checks"): key → Origin header →
 * registered domain → calculator. (The body's shape was checked by the route schema.) Answers without a promise
 * when the store does (SQLite): every embedding page passes here, and each promise is a tick and an allocation.
 * `refusals: 'ignore'` counts no refusal (the funnel's events: docs/decisions.md, "Funnel analytics").
 */
export function authoriseWidget(
  deps: WidgetDeps,
  request: Pick<WidgetCall, 'apiKey' | 'domain' | 'calcId'>,
  originHeader: string | null,
  refusals: 'count' | 'ignore' = 'count',
): AuthorisedWidget | Promise<AuthorisedWidget> {
  const origin = pageOrigin(request.domain);
  if (!request.apiKey.startsWith('pk_')) throw invalidApiKey();
  const now = deps.now();
  // One store call answers both the key and the domain checks (one query on PostgreSQL);
  // they are still judged in order.
  const found = deps.accounts.widgetLookup(request.apiKey, matchingOrigins(origin), pendingCutoff(now));
  const counting = refusals === 'count' ? deps : NOT_COUNTING;
  return found instanceof Promise
    ? found.then((lookup) => judge(counting, lookup, request, origin, originHeader, now))
    : judge(counting, found, request, origin, originHeader, now);
}

/** Where a refusal is counted. */
type Refusals = { usage: Pick<UsageCounter, 'countRefused'> };
/** Counts no refusal. */
const NOT_COUNTING: Refusals = { usage: { countRefused: () => {} } };

function judge(
  deps: Refusals,
  found: WidgetLookup | undefined,
  request: Pick<WidgetCall, 'apiKey' | 'domain' | 'calcId'>,
  origin: string,
  originHeader: string | null,
  now: Date,
): AuthorisedWidget {
  if (!found) throw invalidApiKey();
  const { account, domainStatus: status } = found;
  try {
    checkOriginHeader(origin, originHeader);
  } catch (error) {
    throw error instanceof AppError ? refused(deps, account.id, request.calcId, now, error) : error;
  }
  if (status === 'pending')
    throw refused(
      deps,
      account.id,
      request.calcId,
      now,
      new AppError('domain_pending', `${origin} is waiting for the account owner's approval.`),
    );
  if (status === undefined)
    throw refused(
      deps,
      account.id,
      request.calcId,
      now,
      new AppError('domain_not_registered', `${origin} is not registered for this API key.`),
    );
  return { account, calculator: requireCalculator(request.calcId), origin, now };
}

/**
 * register-domain, in the same order as the other widget routes: body → key → Origin
 * header → the owner's switch → the request itself (pending, or the existing status).
 */
export async function registerDomain(
  deps: WidgetDeps,
  request: { apiKey: string; domain: string },
  originHeader: string | null,
): Promise<DomainJson> {
  const origin = pageOrigin(request.domain);
  const account = await accountForKey(deps, request.apiKey);
  checkOriginHeader(origin, originHeader);
  if (account.registerDomain === 0)
    throw new AppError(
      'register_domain_disabled',
      'The owner of this API key does not accept requests to register an origin; ask them to add it.',
    );
  return requestDomain(deps, account.id, origin);
}

/** The embedding page's own origin: a concrete origin, never a wildcard. */
function pageOrigin(domain: string): string {
  const { origin, wildcard } = normaliseOrigin(domain);
  if (wildcard) throw invalidRequest("domain must be the page's own origin, not a wildcard.");
  return origin;
}

/**
 * The quota and the owner's daily caps: with `count` (a load) one load is counted on
 * today's row (check and count are one step); without (verify) a load that would be
 * refused is refused but nothing is used. Answers at once when the counts are known.
 */
export function useQuota(deps: WidgetDeps, widget: AuthorisedWidget, count: boolean): undefined | Promise<void> {
  const { account, calculator, origin, now } = widget;
  const limit = deps.quotas[account.plan];
  const day = dayOf(now);
  const verdict = count
    ? deps.usage.tryCount(account.id, day, limit, calculator.definition.id, origin, account)
    : deps.usage.admits(account.id, day, limit, origin, account);
  if (typeof verdict !== 'string') return verdict.then((v) => refuseUnless(deps, widget, v, limit));
  refuseUnless(deps, widget, verdict, limit);
  return undefined;
}

function refuseUnless(deps: WidgetDeps, widget: AuthorisedWidget, verdict: LoadVerdict, limit: number): void {
  if (verdict === 'ok') return;
  const { account, calculator, origin, now } = widget;
  throw refused(
    deps,
    account.id,
    calculator.definition.id,
    now,
    verdict === 'quota_exceeded'
      ? new AppError('quota_exceeded', `This account has used its ${limit} widget loads for this month.`)
      : new AppError(
          'cap_reached',
          verdict === 'day_cap'
            ? `The owner of this account allows ${account.loadsPerDay} widget loads a day; today's are used.`
            : `The owner of this account allows ${account.loadsPerDayPerDomain} widget loads a day from ${origin}; today's are used.`,
        ),
  );
}

/**
 * Counts the funnel steps a page reports (`POST /v1/widget/events`) for the calculator and
 * page origin the checks established, on the UTC day the call arrived. Never a load: no
 * quota, no cap, no pull.
 */
export function countEvents(
  deps: Pick<WidgetDeps, 'usage'>,
  widget: AuthorisedWidget,
  events: readonly WidgetEvent[],
): void {
  const { account, calculator, origin, now } = widget;
  const day = dayOf(now);
  for (const event of events) deps.usage.countFunnel(account.id, day, calculator.definition.id, origin, event);
}
