import type { Static } from 'elysia';
import type { ResultRow, ResultsStore } from '../../db/results-store.ts';
import { evaluate } from '../../definition/evaluate.ts';
import { VALUE_SOURCES } from '../../definition/sources.ts';
import { checkSubmittedValues, type ValueProblem } from '../../definition/submitted.ts';
import { LOCALES } from '../../definition/locales.ts';
import { languageOf, textIn } from '../../definition/text.ts';
import type { UnitSystem } from '../../definition/types.ts';
import { newEvent } from '../../delivery/events.ts';
import { normaliseOrigin } from '../../domains/origin.ts';
import { AppError, invalidRequest } from '../../errors.ts';
import { hasResults, type Plan } from '../../plans.ts';
import type { ResultsConfig } from '../../results/config.ts';
import type { ResultsConfigCache } from '../../results/config-cache.ts';
import { newResultId } from '../../secrets.ts';
import { verifyContext } from '../../security/visitor-context.ts';
import { dayOf, periodOf } from '../../usage/counter.ts';
import { authoriseWidget, type WidgetDeps } from '../widget/index.ts';
import type { SubmitRequest } from './model.ts';
import { resultJson } from './service.ts';

type Submission = Static<typeof SubmitRequest>;

export interface SubmitDeps extends WidgetDeps {
  results: ResultsStore;
  configs: ResultsConfigCache;
  /** The account's signing secrets that may have signed a context token. */
  signingSecrets: { active(accountId: string): readonly string[] | Promise<readonly string[]> };
  /** Wakes this server's delivery loop after a commit that queued an event for the account. */
  wake: (accountId: string) => void;
  /** Results accepted per month, per plan. */
  allowances: Readonly<Record<Plan, number>>;
}

/** The UTM parameters kept from the page's address, each under its name without `utm_`. */
const UTM_KEYS = ['source', 'medium', 'campaign', 'term', 'content'] as const;
const MAX_PAGE_CHARS = 2048;
const MAX_UTM_CHARS = 200;
// A pragmatic address check: one @, no spaces, a dot in the domain. Deliverability is the owner's.
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
// Control and invisible format characters (Unicode Cc, Cf) have no place in a name or an address.
const CONTROL = /[\p{Cc}\p{Cf}]/u;

/**
 * `POST /v1/widget/submit` (docs/results.md, "The submit route"): the checks of every widget
 * route, then results on for the calculator (403) → the honeypot (202, nothing stored) →
 * units, inputs, contact and consent, every problem at once (400) → the month's allowance
 * (429) → the result, its count and its event in one transaction. Answers once it committed.
 * Nothing of the visitor's (inputs, contact, `sub`) is ever logged.
 */
export async function submitResult(
  deps: SubmitDeps,
  body: Submission,
  originHeader: string | null,
  client: string,
): Promise<{ id: string }> {
  // The calculator as the checks found it: the version this page may show, read once.
  const { account, calculator, origin, now } = await authoriseWidget(deps, body, originHeader, client);
  const { calcId } = body;
  const config = (await deps.configs.get(account, calcId))?.config;
  if (!config?.enabled || !hasResults(account.plan))
    throw new AppError('results_disabled', `The owner of this calculator does not accept results (${calcId}).`);
  if (body.hp !== undefined && body.hp !== '') return { id: newResultId() };

  const { systems } = calculator.compiled;
  const units = body.units ?? (systems[0] as UnitSystem);
  const problems: ValueProblem[] = [];
  if (!systems.includes(units)) problems.push({ field: 'units', message: `must be one of ${systems.join(', ')}` });
  const checked = checkSubmittedValues(calculator.compiled, body.inputs ?? {}, units);
  problems.push(...checked.problems);
  const contact = contactOf(config, body.contact, problems);
  if (config.consentText !== undefined && body.consent !== true)
    problems.push({ field: 'consent', message: 'is required: the visitor must tick the consent checkbox' });
  const [first] = problems;
  if (first) throw invalidRequest(`${first.field}: ${first.message}.`, problems);

  const createdAt = now.toISOString();
  const context =
    body.context === undefined
      ? null
      : verifyContext(body.context, await deps.signingSecrets.active(account.id), {
          calcId,
          origin,
          nowSeconds: Math.floor(now.getTime() / 1000),
        });
  const page = pageOn(body.page, origin);
  const locale = shownLanguage(body.locale);
  const row: ResultRow = {
    id: newResultId(),
    accountId: account.id,
    calcId,
    domain: origin,
    createdAt,
    units,
    inputs: JSON.stringify(checked.values),
    outputs: JSON.stringify(evaluate(calculator.compiled, checked.values, units)),
    contactEmail: contact.email ?? null,
    contactName: contact.name ?? null,
    visitor: context,
    page: page?.href ?? null,
    utm: page ? jsonOrNull(page.utm) : null,
    prefill: jsonOrNull(prefillOf(calculator.definition.inputs, body.sources)),
    consent:
      config.consentText === undefined
        ? null
        : JSON.stringify({ text: textIn(config.consentText, locale), locale, at: createdAt }),
    eventId: null,
  };
  const event = newEvent(account.id, 'result.submitted', resultJson(row), now);
  const outcome = await deps.results.submit(
    row,
    event,
    { period: periodOf(now), limit: deps.allowances[account.plan] },
    now.getTime(),
  );
  if (!outcome.stored)
    throw new AppError(
      'quota_exceeded',
      `This account has used its ${deps.allowances[account.plan]} submissions for this month.`,
    );
  if (outcome.eventQueued) deps.wake(account.id);
  // The funnel's `submit` step: only here, once the result is stored (never for the honeypot).
  deps.usage.countFunnel(account.id, dayOf(now), calcId, origin, 'submit');
  return { id: row.id };
}

/** The contact fields the config asks for, trimmed; fields it does not ask for are dropped. */
function contactOf(
  config: ResultsConfig,
  sent: Submission['contact'],
  problems: ValueProblem[],
): { email?: string; name?: string } {
  const kept: { email?: string; name?: string } = {};
  const modes = { email: 'off', name: 'off', ...config.contact };
  for (const field of ['email', 'name'] as const) {
    const mode = modes[field];
    if (mode === 'off') continue;
    const value = sent?.[field]?.trim() ?? '';
    if (value === '') {
      if (mode === 'required') problems.push({ field: `contact.${field}`, message: 'is required' });
      continue;
    }
    if (CONTROL.test(value)) problems.push({ field: `contact.${field}`, message: 'holds control characters' });
    else if (field === 'email' && !EMAIL.test(value))
      problems.push({ field: 'contact.email', message: 'is not an email address' });
    else kept[field] = value;
  }
  return kept;
}

/** The page's address when it is on the page's origin (without its fragment), with its UTM parameters. */
function pageOn(raw: string | undefined, origin: string): { href: string; utm: Record<string, string> } | null {
  if (raw === undefined || raw.length > MAX_PAGE_CHARS) return null;
  let url: URL;
  try {
    url = new URL(raw);
    if (normaliseOrigin(url.origin).origin !== origin) return null;
  } catch {
    return null;
  }
  url.hash = '';
  const utm: Record<string, string> = {};
  for (const key of UTM_KEYS) {
    const value = url.searchParams.get(`utm_${key}`)?.trim();
    if (value && value.length <= MAX_UTM_CHARS && !CONTROL.test(value)) utm[key] = value;
  }
  return { href: url.href, utm };
}

/** Of the widget's report, the inputs the definition has and the source names calc knows. */
function prefillOf(inputs: readonly { key: string }[], sources: Submission['sources']): Record<string, string> {
  const kept: Record<string, string> = {};
  if (sources === undefined) return kept;
  const keys = new Set(inputs.map((input) => input.key));
  for (const [key, source] of Object.entries(sources))
    if (keys.has(key) && (VALUE_SOURCES as readonly string[]).includes(source)) kept[key] = source;
  return kept;
}

/** The widget's language ('pt-BR' → 'pt'), English unless it is one calc speaks. */
/** The visitor's language when the widget speaks it, else English: what the consent was shown in. */
function shownLanguage(locale: string | undefined): string {
  const language = locale === undefined ? 'en' : languageOf(locale);
  return (LOCALES as readonly string[]).includes(language) ? language : 'en';
}

const jsonOrNull = (value: Record<string, string>): string | null =>
  Object.keys(value).length === 0 ? null : JSON.stringify(value);
