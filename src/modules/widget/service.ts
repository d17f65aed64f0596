import type { Static } from '@sinclair/typebox';
import type { CalculatorResolver, ResolvedCalculator } from '../../calculator-resolver.ts';
import { getTemplate } from '../../calculators/index.ts';
import type { Plan } from '../../plans.ts';
import type { AccountRow, AccountsStore, WidgetLookup } from '../../db/accounts-store.ts';
import type { DomainsStore } from '../../db/domains-store.ts';
import { AppError, invalidRequest } from '../../errors.ts';
import type { WidgetLimit } from '../../http/rate-limit.ts';
import { type CalculatorIds, calculatorNotFound } from '../../require-calculator.ts';
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
  /** A calcId as the account's pages may load it: a template or the account's published calculator. */
  resolveCalculator: CalculatorResolver;
  /** Which ids refusals are counted under. */
  calculatorIds: Pick<CalculatorIds, 'exists'>;
  /** The per-client limit, or null when it is off. */
  limit: WidgetLimit | null;
  /** Counts a call the per-client limit refused before its key was looked up (the widget routes set it). */
  earlyRefusal?: (request: { apiKey: string; calcId: string }, reason: RefusalReason) => void;
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
  calculator: ResolvedCalculator;
  origin: string;
  /** When the call arrived: one clock reading for every step of it. */
  now: Date;
}

/**
 * Counts a refused widget call in its owner's usage (docs/api.md, "Usage history"). Only
 * calculators that exist are counted: the id is the caller's choice, and strangers must
 * not be able to fill an owner's usage with made-up ones.
 */
function countRefusal(
  deps: Pick<WidgetDeps, 'usage' | 'calculatorIds'>,
  accountId: string,
  calcId: string,
  now: Date,
  reason: RefusalReason,
) {
  const exists = deps.calculatorIds.exists(accountId, calcId);
  if (exists === true) deps.usage.countRefused(accountId, dayOf(now), calcId, reason);
  else if (exists instanceof Promise)
    void exists.then((yes) => {
      if (yes) deps.usage.countRefused(accountId, dayOf(now), calcId, reason);
    });
}

/** Counts `error` as a refusal when it is one usage counts; answers it, to throw. */
function refused(
  deps: Pick<WidgetDeps, 'usage' | 'calculatorIds'>,
  accountId: string,
  calcId: string,
  now: Date,
  error: AppError,
) {
  if (isCountedRefusal(error.code)) countRefusal(deps, accountId, calcId, now, error.code);
  return error;
}

/**
 * Counts a widget call refused before its key was looked up (the per-client limit) in the
 * usage of the key's owner. The lookup is the caller's, off the answer's path.
 */
export function countEarlyRefusal(
  deps: Pick<WidgetDeps, 'usage' | 'now' | 'calculatorIds'>,
  accountId: string,
  calcId: string,
  reason: RefusalReason,
): void {
  countRefusal(deps, accountId, calcId, deps.now(), reason);
}

/**
 * The checks both widget routes share, in the documented order (docs/api.md, "Order of checks"): per-client
 * limit → key → Origin header → registered domain → calculator. (The body's shape was checked by the route
 * schema.) The limit is taken before the lookup for a (client, key) pair the limiter holds, after it for the
 * others, once the key is known valid or not. Answers without a promise when the store does (SQLite): every
 * embedding page passes here, and each promise is a tick and an allocation. A catalogue id costs no read; an
 * owner's calculator none either while the one the resolver holds is current (the lookup's `calculatorToken`).
 */
export function authoriseWidget(
  deps: WidgetDeps,
  request: WidgetCall,
  originHeader: string | null,
  client: string,
): AuthorisedWidget | Promise<AuthorisedWidget> {
  const origin = pageOrigin(request.domain);
  const now = deps.now();
  const counted = deps.limit === null || heldBeforeLookup(deps, deps.limit, client, request);
  if (!request.apiKey.startsWith('pk_')) {
    if (!counted) deps.limit?.count(client, request.apiKey, false);
    throw invalidApiKey();
  }
  // One store call answers the key and the domain checks (one query on PostgreSQL) and,
  // for any id but a catalogue one, tells the resolver whether the calculator it holds is
  // current (`calculatorToken`); they are still judged in order.
  const calcId = getTemplate(request.calcId) ? undefined : request.calcId;
  const found = deps.accounts.widgetLookup(request.apiKey, matchingOrigins(origin), pendingCutoff(now), calcId);
  const uncounted = counted ? null : client;
  return found instanceof Promise
    ? found.then((lookup) =>
        withCalculator(deps, judge(deps, lookup, request, origin, originHeader, now, uncounted), request, origin, now),
      )
    : withCalculator(deps, judge(deps, found, request, origin, originHeader, now, uncounted), request, origin, now);
}

/**
 * The limit for a (client, key) pair the limiter holds, before the lookup. Its 429 is
 * counted in the usage of the key's owner, whom this call has not looked up: the
 * widget module's early-refusal counter finds the owner off the answer's path.
 */
function heldBeforeLookup(deps: WidgetDeps, limit: WidgetLimit, client: string, request: WidgetCall): boolean {
  try {
    return limit.held(client, request.apiKey);
  } catch (error) {
    if (error instanceof AppError && isCountedRefusal(error.code)) deps.earlyRefusal?.(request, error.code);
    throw error;
  }
}

/** The limit for a call the limiter did not hold, once the lookup said whose key it is. */
function countedAfterLookup(
  deps: WidgetDeps,
  limit: WidgetLimit,
  client: string,
  request: WidgetCall,
  found: WidgetLookup | undefined,
  now: Date,
): void {
  try {
    limit.count(client, request.apiKey, found !== undefined);
  } catch (error) {
    throw found && error instanceof AppError ? refused(deps, found.account.id, request.calcId, now, error) : error;
  }
}

/**
 * The calculator check, last before the quota: the account's pages may show it, or 404. A
 * template, or the account's published calculator: when cached and current, no read of its own.
 */
function withCalculator(
  deps: Pick<WidgetDeps, 'resolveCalculator'>,
  { account, calculatorToken }: WidgetLookup,
  request: WidgetCall,
  origin: string,
  now: Date,
): AuthorisedWidget | Promise<AuthorisedWidget> {
  const resolved = deps.resolveCalculator(account.id, request.calcId, calculatorToken);
  return resolved instanceof Promise
    ? resolved.then((calculator) => authorised(account, calculator, request.calcId, origin, now))
    : authorised(account, resolved, request.calcId, origin, now);
}

function authorised(
  account: AccountRow,
  calculator: ResolvedCalculator | undefined,
  calcId: string,
  origin: string,
  now: Date,
): AuthorisedWidget {
  // Not found alike: an unknown id, another account's, a draft never published, a deleted one.
  if (!calculator) throw calculatorNotFound(calcId);
  return { account, calculator, origin, now };
}

/** The key, Origin header and domain checks on the account lookup's answer. */
function judge(
  deps: WidgetDeps,
  found: WidgetLookup | undefined,
  request: WidgetCall,
  origin: string,
  originHeader: string | null,
  now: Date,
  /** The client when the call is still to be counted against the per-client limit. */
  uncounted: string | null,
): WidgetLookup {
  if (uncounted !== null && deps.limit) countedAfterLookup(deps, deps.limit, uncounted, request, found, now);
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
  return found;
}

/**
 * register-domain, in the same order as the other widget routes: body → per-client limit →
 * key → Origin header → the owner's switch → the request itself (pending, or the existing status).
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
    ? deps.usage.tryCount(account.id, day, limit, calculator.id, origin, account)
    : deps.usage.admits(account.id, day, limit, origin, account);
  if (typeof verdict !== 'string') return verdict.then((v) => refuseUnless(deps, widget, v, limit));
  refuseUnless(deps, widget, verdict, limit);
  return undefined;
}

function refuseUnless(deps: WidgetDeps, widget: AuthorisedWidget, verdict: LoadVerdict, limit: number): void {
  if (verdict === 'ok') return;
  const { account, calculator, origin, now } = widget;
  const reason = verdict === 'quota_exceeded' ? 'quota_exceeded' : 'cap_reached';
  // The calculator was found for this account: counted without asking whether it exists.
  deps.usage.countRefused(account.id, dayOf(now), calculator.id, reason);
  throw verdict === 'quota_exceeded'
    ? new AppError('quota_exceeded', `This account has used its ${limit} widget loads for this month.`)
    : new AppError(
        'cap_reached',
        verdict === 'day_cap'
          ? `The owner of this account allows ${account.loadsPerDay} widget loads a day; today's are used.`
          : `The owner of this account allows ${account.loadsPerDayPerDomain} widget loads a day from ${origin}; today's are used.`,
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
  for (const event of events) deps.usage.countFunnel(account.id, day, calculator.id, origin, event);
}
