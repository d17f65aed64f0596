import type { Static } from '@sinclair/typebox';
import type { CalculatorResolver, ResolvedCalculator } from '../../calculator-resolver.ts';
import { getTemplate } from '../../calculators/index.ts';
import type { Plan } from '../../plans.ts';
import type { AccountRow, AccountsStore, WidgetLookup } from '../../db/accounts-store.ts';
import type { DomainsStore } from '../../db/domains-store.ts';
import { AppError, invalidRequest } from '../../errors.ts';
import type { CalculatorIds } from '../../require-calculator.ts';
import { dayOf, type LoadVerdict, type UsageCounter } from '../../usage/counter.ts';
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
 * The checks both widget routes share, in the documented order (docs/api.md, "Order of checks"): key → Origin header →
 * registered domain → calculator. (The body's shape was checked by the route schema.) Answers without a promise
 * when the store does (SQLite): every embedding page passes here, and each promise is a tick and an allocation.
 * A catalogue id costs no read; an owner's calculator one point read (its published version, cached per version).
 */
export function authoriseWidget(
  deps: WidgetDeps,
  request: WidgetCall,
  originHeader: string | null,
): AuthorisedWidget | Promise<AuthorisedWidget> {
  const origin = pageOrigin(request.domain);
  if (!request.apiKey.startsWith('pk_')) throw invalidApiKey();
  const now = deps.now();
  // One store call answers the key and the domain checks (one query on PostgreSQL) and,
  // for any id but a catalogue one, tells the resolver whether the calculator it holds is
  // current (`calculatorToken`); they are still judged in order.
  const calcId = getTemplate(request.calcId) ? undefined : request.calcId;
  const found = deps.accounts.widgetLookup(request.apiKey, matchingOrigins(origin), pendingCutoff(now), calcId);
  return found instanceof Promise
    ? found.then((lookup) =>
        withCalculator(deps, judge(deps, lookup, request, origin, originHeader, now), request, origin, now),
      )
    : withCalculator(deps, judge(deps, found, request, origin, originHeader, now), request, origin, now);
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
  if (!calculator) throw new AppError('calculator_not_found', `There is no calculator "${calcId}".`);
  return { account, calculator, origin, now };
}

/** The key, Origin header and domain checks on the account lookup's answer. */
function judge(
  deps: Pick<WidgetDeps, 'usage' | 'calculatorIds'>,
  found: WidgetLookup | undefined,
  request: WidgetCall,
  origin: string,
  originHeader: string | null,
  now: Date,
): WidgetLookup {
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
