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

/** Most loads' answers, made once and shared: their readers never change them (frozen). */
const PLAN_REQUIRED: PullResult = Object.freeze({ ...nothing('plan_required'), values: Object.freeze({}) });
const NO_WEBHOOK: PullResult = Object.freeze({ ...nothing('no_webhook'), values: Object.freeze({}) });

/**
 * Runs the guarded webhook pull for one widget load. The plan is read from the account
 * row of this very request (never cached), so a downgrade stops calls at once. Never
 * throws: a failure is an outcome and the visitor gets the defaults. Every step before
 * the call answers without a promise when the store does (SQLite): below Extra, and for
 * Extra loads without a webhook, the whole pull takes no extra tick.
 */
export function pullWebhook(
  deps: PullDeps,
  account: AccountRow,
  calculator: PulledCalculator,
  visit: PullVisit,
): PullResult | Promise<PullResult> {
  if (!hasWebhooks(account.plan)) return PLAN_REQUIRED;
  const startedAt = performance.now();
  let found: WidgetConfigRow | undefined | Promise<WidgetConfigRow | undefined>;
  try {
    found = deps.configs.find(account.id, calculator.definition.id);
  } catch (error) {
    return configUnreadable(deps, account, calculator, error);
  }
  const pull = { account, calculator, visit, startedAt };
  return found instanceof Promise
    ? found.then(
        (config) => pullWith(deps, pull, config),
        (error: unknown) => configUnreadable(deps, account, calculator, error),
      )
    : pullWith(deps, pull, found);
}

/** One pull in progress: for whom, and when it began (`performance.now()`). */
interface Pull {
  account: AccountRow;
  calculator: PulledCalculator;
  visit: PullVisit;
  startedAt: number;
}

function configUnreadable(
  deps: PullDeps,
  account: AccountRow,
  calculator: PulledCalculator,
  error: unknown,
): PullResult {
  // The visitor still gets the calculator; the operator hears about the store.
  deps.logger.error('widget config could not be read; loading with defaults', {
    accountId: account.id,
    calcId: calculator.definition.id,
    error: String(error),
  });
  return nothing('unreachable');
}

function pullWith(deps: PullDeps, pull: Pull, config: WidgetConfigRow | undefined): PullResult | Promise<PullResult> {
  if (!config?.webhookUrl) return NO_WEBHOOK;
  const { account, calculator } = pull;
  const release = deps.limiter.tryAcquire(account.id);
  if (!release) return recordOutcome(deps, pull, nothing('busy'));
  if (
    account.pullsPerSecond !== null &&
    deps.pullRate &&
    !deps.pullRate.tryTake(account.id, account.pullsPerSecond, deps.now().getTime())
  ) {
    release();
    return recordOutcome(deps, pull, nothing('capped'));
  }
  let headers: Readonly<Record<string, string>> = {};
  if (config.webhookHeaders) {
    try {
      headers = openHeaders(deps.cipher, config.webhookHeaders, rowId(account.id, calculator.definition.id));
    } catch {
      release();
      // A wrong or lost webhook-key: say so to the operator, never call without the auth.
      deps.logger.error("webhook headers cannot be decrypted; check the data directory's webhook-key", {
        accountId: account.id,
        calcId: calculator.definition.id,
      });
      return recordOutcome(deps, pull, nothing('unreachable'));
    }
  }
  const call = { url: config.webhookUrl, headers };
  let secrets: string[] | Promise<string[]>;
  try {
    secrets = deps.signingSecrets.active(account.id);
  } catch (error) {
    return unsigned(deps, pull, release, error);
  }
  return secrets instanceof Promise
    ? secrets.then(
        (active) => signedCall(deps, pull, call, active, release),
        (error: unknown) => unsigned(deps, pull, release, error),
      )
    : signedCall(deps, pull, call, secrets, release);
}

// Decrypted webhook headers by row and sealed text, per cipher (a server's key): a save
// writes a new sealed text (a fresh IV), so an entry is never stale, and the row in the
// key keeps the associated-data check (a sealed text copied to another row misses and
// fails to open). Read-only (frozen) and bounded; emptied when full (a miss costs one
// decryption, about 10 us of a pull).
const openedHeaders = new WeakMap<HeaderCipher, Map<string, Readonly<Record<string, string>>>>();
const MAX_OPENED_HEADERS = 10_000;

function openHeaders(cipher: HeaderCipher, sealed: string, row: string): Readonly<Record<string, string>> {
  let opened = openedHeaders.get(cipher);
  if (opened === undefined) {
    opened = new Map();
    openedHeaders.set(cipher, opened);
  }
  const key = `${row}\u0000${sealed}`;
  let headers = opened.get(key);
  if (headers === undefined) {
    headers = Object.freeze(cipher.open(sealed, row));
    if (opened.size >= MAX_OPENED_HEADERS) opened.clear();
    opened.set(key, headers);
  }
  return headers;
}

function unsigned(deps: PullDeps, pull: Pull, release: () => void, error: unknown): PullResult {
  release();
  // Never an unsigned call: an owner who checks signatures would refuse it anyway.
  deps.logger.error('the signing secret could not be read; the webhook was not called', {
    accountId: pull.account.id,
    calcId: pull.calculator.definition.id,
    error: String(error),
  });
  return recordOutcome(deps, pull, nothing('unreachable'));
}

function signedCall(
  deps: PullDeps,
  pull: Pull,
  call: { url: string; headers: Readonly<Record<string, string>> },
  secrets: readonly string[],
  release: () => void,
): PullResult | Promise<PullResult> {
  let signed: Record<string, string>;
  try {
    signed = signedHeaders(deps, pull, call.url, secrets);
  } catch (error) {
    return unsigned(deps, pull, release, error);
  }
  return callWebhook(deps, pull, { ...call, signed }, release);
}

/** The signed `Calc-*` headers; a context that does not verify only means no visitor. */
function signedHeaders(deps: PullDeps, pull: Pull, url: string, secrets: readonly string[]): Record<string, string> {
  const { calculator, visit } = pull;
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
  pull: Pull,
  call: { url: string; headers: Readonly<Record<string, string>>; signed: Record<string, string> },
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
        ? mergeWebhookValues(pull.calculator.definition, fetched.body)
        : { values: {}, ignoredKeys: [] };
    const result = {
      outcome: fetched.outcome,
      httpStatus: fetched.httpStatus,
      durationMs: fetched.durationMs,
      ...merged,
    };
    return recordOutcome(deps, pull, result);
  } finally {
    release();
  }
}

function recordOutcome(deps: PullDeps, pull: Pull, result: PullResult): PullResult {
  const status = {
    at: deps.now().toISOString(),
    outcome: result.outcome,
    httpStatus: result.httpStatus,
    durationMs: result.durationMs,
  };
  deps.statusLog.record(pull.account.id, pull.calculator.definition.id, status, pull.startedAt);
  return result;
}
