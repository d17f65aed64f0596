import type { Definition, InputValues } from '../../definition/types.ts';
import type { AccountRow } from '../../db/accounts-store.ts';
import type { WidgetConfigRow, WidgetConfigStore } from '../../db/widget-config-store.ts';
import type { Logger } from '../../logger.ts';
import { hasWebhooks } from '../../plans.ts';
import type { AddressPolicy } from '../../webhook/address-policy.ts';
import { guardedFetch } from '../../webhook/guarded-fetch.ts';
import type { InFlightLimiter } from '../../webhook/in-flight.ts';
import type { PullRate } from '../../webhook/pull-rate.ts';
import { mergeWebhookValues } from '../../webhook/merge.ts';
import { signedPullHeaders } from '../../webhook/signature.ts';
import type { Resolver } from '../../webhook/url-check.ts';
import type { PullOutcome } from '../../webhook/outcomes.ts';
import type { SigningSecrets } from '../signing-secret/index.ts';
import { verifyContext } from '../../security/visitor-context.ts';
import { type HeaderCipher, rowId } from '../../security/header-cipher.ts';
import type { StatusLog } from './status-log.ts';

export interface PullDeps {
  configs: WidgetConfigStore;
  cipher: HeaderCipher;
  signingSecrets: Pick<SigningSecrets, 'active'>;
  statusLog: StatusLog;
  limiter: InFlightLimiter;
  /** The owner's `pullsPerSecond`, applied to widget loads' pulls (not to the owner's own tests). */
  pullRate?: PullRate;
  resolve: Resolver;
  policy: AddressPolicy;
  logger: Logger;
  now: () => Date;
  userAgent: string;
  timeoutMs?: number;
}

/** The calculator a pull is for: the definition whose input keys the answer is merged through. */
export interface PulledCalculator {
  definition: Definition;
}

export interface PullResult {
  outcome: PullOutcome;
  httpStatus: number | null;
  durationMs: number;
  values: InputValues;
  ignoredKeys: string[];
}

/**
 * Whom a pull is for: the page's origin, and the visitor as the page's context token
 * claims it (checked here) or as the owner names it in a test pull (trusted).
 */
export interface PullVisit {
  origin: string;
  context?: string;
  visitor?: string;
}

const nothing = (outcome: PullOutcome): PullResult => ({
  outcome,
  httpStatus: null,
  durationMs: 0,
  values: {},
  ignoredKeys: [],
});

/** Most loads' answer, made once and shared: its readers never change it (frozen). */
const PLAN_REQUIRED: PullResult = Object.freeze({ ...nothing('plan_required'), values: Object.freeze({}) });

/**
 * Runs the guarded webhook pull for one widget load. The plan is read from the account
 * row of this very request (never cached), so a downgrade stops calls at once. Never
 * throws: a failure is an outcome and the visitor gets the defaults. Below Extra the
 * answer comes without a promise: most loads then take no extra tick.
 */
export function pullWebhook(
  deps: PullDeps,
  account: AccountRow,
  calculator: PulledCalculator,
  visit: PullVisit,
): PullResult | Promise<PullResult> {
  if (!hasWebhooks(account.plan)) return PLAN_REQUIRED;
  return pullForExtra(deps, account, calculator, visit);
}

async function pullForExtra(
  deps: PullDeps,
  account: AccountRow,
  calculator: PulledCalculator,
  visit: PullVisit,
): Promise<PullResult> {
  const startedAt = performance.now();
  let config: WidgetConfigRow | undefined;
  try {
    config = await deps.configs.find(account.id, calculator.definition.id);
  } catch (error) {
    // The visitor still gets the calculator; the operator hears about the store.
    deps.logger.error('widget config could not be read; loading with defaults', {
      accountId: account.id,
      calcId: calculator.definition.id,
      error: String(error),
    });
    return nothing('unreachable');
  }
  if (!config?.webhookUrl) return nothing('no_webhook');
  const release = deps.limiter.tryAcquire(account.id);
  if (!release) return recordOutcome(deps, account, calculator, nothing('busy'), startedAt);
  if (
    account.pullsPerSecond !== null &&
    deps.pullRate &&
    !deps.pullRate.tryTake(account.id, account.pullsPerSecond, deps.now().getTime())
  ) {
    release();
    return recordOutcome(deps, account, calculator, nothing('capped'), startedAt);
  }
  let headers: Record<string, string> = {};
  if (config.webhookHeaders) {
    try {
      headers = deps.cipher.open(config.webhookHeaders, rowId(account.id, calculator.definition.id));
    } catch {
      release();
      // A wrong or lost webhook-key: say so to the operator, never call without the auth.
      deps.logger.error("webhook headers cannot be decrypted; check the data directory's webhook-key", {
        accountId: account.id,
        calcId: calculator.definition.id,
      });
      return recordOutcome(deps, account, calculator, nothing('unreachable'), startedAt);
    }
  }
  let signed: Record<string, string>;
  try {
    signed = await signPull(deps, account, calculator, config.webhookUrl, visit);
  } catch (error) {
    release();
    // Never an unsigned call: an owner who checks signatures would refuse it anyway.
    deps.logger.error('the signing secret could not be read; the webhook was not called', {
      accountId: account.id,
      calcId: calculator.definition.id,
      error: String(error),
    });
    return recordOutcome(deps, account, calculator, nothing('unreachable'), startedAt);
  }
  return callWebhook(deps, { url: config.webhookUrl, headers, signed, account, calculator, startedAt }, release);
}

/** The signed `Calc-*` headers; a context that does not verify only means no visitor. */
async function signPull(
  deps: PullDeps,
  account: AccountRow,
  calculator: PulledCalculator,
  url: string,
  visit: PullVisit,
): Promise<Record<string, string>> {
  const secrets = await deps.signingSecrets.active(account.id);
  const nowSeconds = Math.floor(deps.now().getTime() / 1000);
  const visitor =
    visit.visitor ??
    (visit.context === undefined
      ? null
      : verifyContext(visit.context, secrets, { calcId: calculator.definition.id, origin: visit.origin, nowSeconds }));
  return signedPullHeaders(
    { url, calcId: calculator.definition.id, origin: visit.origin, visitor },
    secrets,
    nowSeconds,
  );
}

async function callWebhook(
  deps: PullDeps,
  call: {
    url: string;
    headers: Record<string, string>;
    signed: Record<string, string>;
    account: AccountRow;
    calculator: PulledCalculator;
    startedAt: number;
  },
  release: () => void,
): Promise<PullResult> {
  try {
    const fetched = await guardedFetch(call.url, call.headers, {
      resolve: deps.resolve,
      policy: deps.policy,
      userAgent: deps.userAgent,
      timeoutMs: deps.timeoutMs,
      signed: call.signed,
    });
    const merged =
      fetched.outcome === 'ok'
        ? mergeWebhookValues(call.calculator.definition, fetched.body)
        : { values: {}, ignoredKeys: [] };
    const result = {
      outcome: fetched.outcome,
      httpStatus: fetched.httpStatus,
      durationMs: fetched.durationMs,
      ...merged,
    };
    return recordOutcome(deps, call.account, call.calculator, result, call.startedAt);
  } finally {
    release();
  }
}

function recordOutcome(
  deps: PullDeps,
  account: AccountRow,
  calculator: PulledCalculator,
  result: PullResult,
  startedAt: number,
): PullResult {
  const status = {
    at: deps.now().toISOString(),
    outcome: result.outcome,
    httpStatus: result.httpStatus,
    durationMs: result.durationMs,
  };
  deps.statusLog.record(account.id, calculator.definition.id, status, startedAt);
  return result;
}
