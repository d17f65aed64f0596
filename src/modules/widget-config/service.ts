import type { Static } from '@sinclair/typebox';
import type { AccountRow } from '../../db/accounts-store.ts';
import type { DomainsStore } from '../../db/domains-store.ts';
import { hasWebhooks, webhookPlanRequired } from '../../plans.ts';
import type { WidgetConfigStore } from '../../db/widget-config-store.ts';
import { AppError, invalidRequest } from '../../errors.ts';
import { requireAccountCalculator } from '../../require-calculator.ts';
import type { CalculatorResolver } from '../../calculator-resolver.ts';
import type { CustomCalculatorsStore } from '../../db/custom-calculators-store.ts';
import type { AddressPolicy } from '../../webhook/address-policy.ts';
import { REDACTED, validateWebhookHeaders } from '../../webhook/headers.ts';
import type { Resolver } from '../../webhook/url-check.ts';
import { urlRefusal } from '../../webhook/save-check.ts';
import { type HeaderCipher, rowId } from '../../security/header-cipher.ts';
import type { ConfigAnswer, ConfigRequest } from './model.ts';
import { type PullDeps, type PullVisit, pullWebhook } from './pull.ts';
import { getTemplate, type Template } from '../../calculators/index.ts';
import { refusalMessage } from '../../definition/problems.ts';
import type { Definition } from '../../definition/types.ts';
import { validateDefinition } from '../../definition/validate.ts';
import { loadedCalculator } from '../widget/index.ts';
import type { StatusLog } from './status-log.ts';
import type { ResultsConfigStore } from '../../db/results-config-store.ts';
import { checkResults, savedResults } from './results.ts';

export interface ConfigDeps {
  configs: WidgetConfigStore;
  cipher: HeaderCipher;
  statusLog: StatusLog;
  resolve: Resolver;
  policy: AddressPolicy;
  now: () => Date;
  resultsConfigs: ResultsConfigStore;
  /** Templates and the account's published calculators (cached per version). */
  resolveCalculator: CalculatorResolver;
  /** The account's own calculators, drafts included. */
  calculators: Pick<CustomCalculatorsStore, 'find'>;
}

type ConfigJson = Static<typeof ConfigAnswer>;
type WebhookInput = NonNullable<Static<typeof ConfigRequest>['config']['webhook']>;

/** The config as owners see it: header names with every value redacted; the results config, when saved. */
export async function readConfig(deps: ConfigDeps, accountId: string, calcId: string): Promise<ConfigJson> {
  const answer = await readWebhookConfig(deps, accountId, calcId);
  const results = await savedResults(deps, accountId, calcId);
  if (results !== undefined) answer.config.results = results;
  return answer;
}

async function readWebhookConfig(deps: ConfigDeps, accountId: string, calcId: string): Promise<ConfigJson> {
  await requireAccountCalculator(deps, accountId, calcId);
  const row = await deps.configs.find(accountId, calcId);
  // An outcome belongs to a webhook: with none configured there is nothing to report.
  if (!row?.webhookUrl) return { calcId, config: {}, webhookStatus: null };
  const webhookStatus = deps.statusLog.get(accountId, calcId, row.webhookStatus, row.updatedAt);
  const names = row.webhookHeaders ? Object.keys(storedHeaders(deps, accountId, calcId, row.webhookHeaders)) : [];
  return {
    calcId,
    config: { webhook: { url: row.webhookUrl, headers: Object.fromEntries(names.map((n) => [n, REDACTED])) } },
    webhookStatus,
  };
}

/**
 * Saves a PUT's config: its results config (when named) and its webhook (unless the PUT
 * names results alone), checks first, in the documented order (docs/api.md, "Order of
 * checks"): calculator (404) → plan (403) → results (400) → headers (400) → URL (422).
 */
export async function saveConfig(
  deps: ConfigDeps,
  account: AccountRow,
  calcId: string,
  config: Static<typeof ConfigRequest>['config'],
): Promise<ConfigJson> {
  await requireAccountCalculator(deps, account.id, calcId);
  const resultsOnly = config.results !== undefined && config.webhook === undefined;
  if (!resultsOnly && config.webhook) checkWebhookPlan(account);
  const results = checkResults(account, config.results);
  const saveResults = () =>
    results === undefined
      ? Promise.resolve()
      : deps.resultsConfigs.save(account.id, calcId, results, deps.now().toISOString());
  if (resultsOnly) {
    await saveResults();
    return readConfig(deps, account.id, calcId);
  }
  await saveWebhook(deps, account, calcId, config.webhook, saveResults);
  return readConfig(deps, account.id, calcId);
}

function checkWebhookPlan(account: AccountRow): void {
  if (!hasWebhooks(account.plan)) throw new AppError('plan_required', webhookPlanRequired(account));
}

/**
 * Saves or removes the webhook: headers (400) → URL (422); `beforeWrite` (the results
 * config's save) runs once every check passed. Nothing is written unless every check passed.
 */
async function saveWebhook(
  deps: ConfigDeps,
  account: AccountRow,
  calcId: string,
  webhook: WebhookInput | null | undefined,
  beforeWrite: () => Promise<void>,
): Promise<void> {
  if (webhook === null || webhook === undefined) {
    await beforeWrite();
    await deps.configs.saveWebhook({
      accountId: account.id,
      calcId,
      webhookUrl: null,
      webhookHeaders: null,
      updatedAt: deps.now().toISOString(),
    });
    deps.statusLog.clear(account.id, calcId);
    return;
  }
  const headers = await resolveRedacted(deps, account.id, calcId, webhook);
  const checked = validateWebhookHeaders(headers);
  if (!checked.ok) throw invalidRequest(`config.webhook.headers: ${checked.reason}.`);
  await checkUrl(deps, webhook.url);
  await beforeWrite();
  const names = Object.keys(checked.headers);
  await deps.configs.saveWebhook({
    accountId: account.id,
    calcId,
    webhookUrl: webhook.url,
    webhookHeaders: names.length > 0 ? deps.cipher.seal(checked.headers, rowId(account.id, calcId)) : null,
    updatedAt: deps.now().toISOString(),
  });
  deps.statusLog.clear(account.id, calcId);
}

/**
 * A value sent back as "<redacted>" keeps the secret stored under that name, but only
 * while the URL keeps its origin (scheme, host, port): otherwise a stolen owner token
 * could send the customer's stored secrets to a host of its choice.
 */
async function resolveRedacted(
  deps: ConfigDeps,
  accountId: string,
  calcId: string,
  webhook: WebhookInput,
): Promise<Record<string, string>> {
  const headers = webhook.headers ?? {};
  const redactedNames = Object.keys(headers).filter((name) => headers[name] === REDACTED);
  if (redactedNames.length === 0) return headers;
  const row = await deps.configs.find(accountId, calcId);
  const newOrigin = originOf(webhook.url);
  // An unparsable URL is refused by the URL check (422); nothing is saved either way.
  if (newOrigin !== null && row?.webhookUrl && originOf(row.webhookUrl) !== newOrigin) {
    throw invalidRequest(
      `config.webhook.headers: ${redactedNames[0]} is "${REDACTED}" but the webhook URL moves to another origin (${newOrigin}); send the header's real value again.`,
      { headers: redactedNames },
    );
  }
  const stored = row?.webhookHeaders ? storedHeaders(deps, accountId, calcId, row.webhookHeaders) : {};
  const storedByLowerName = new Map(Object.entries(stored).map(([name, value]) => [name.toLowerCase(), value]));
  const resolved: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== REDACTED) {
      resolved[name] = value;
      continue;
    }
    const kept = storedByLowerName.get(name.toLowerCase());
    if (kept === undefined)
      throw invalidRequest(
        `config.webhook.headers: ${name} is "${REDACTED}" but no value is stored for it; send the real value.`,
      );
    resolved[name] = kept;
  }
  return resolved;
}

function originOf(raw: string): string | null {
  try {
    return new URL(raw).origin;
  } catch {
    return null;
  }
}

/**
 * The stored header values; none when they cannot be decrypted (the operator started with
 * a new webhook-key, `--regenerate-secrets`): they are lost, the owner sees no headers and
 * must send their values again, and pulls meanwhile fail as `unreachable`.
 */
function storedHeaders(deps: ConfigDeps, accountId: string, calcId: string, sealed: string): Record<string, string> {
  try {
    return deps.cipher.open(sealed, rowId(accountId, calcId));
  } catch {
    return {};
  }
}

/** The save-time URL check: the same parse, lookup and address rules as every fetch. */
async function checkUrl(deps: ConfigDeps, raw: string): Promise<void> {
  const refused = await urlRefusal(raw, deps);
  if (refused !== null) throw new AppError('invalid_webhook_url', `config.webhook.url is refused: ${refused}`);
}

/**
 * Whom a test pull is for: the named visitor (the owner is signed in, so no token is
 * needed) and, as there is no page, the account's oldest active origin, or an empty
 * `Calc-Origin` when it has none.
 */
export async function testVisit(
  deps: { domains: DomainsStore },
  accountId: string,
  visitor: string | undefined,
): Promise<PullVisit> {
  const origin = (await deps.domains.list(accountId)).find((domain) => domain.status === 'active')?.origin ?? '';
  return visitor === undefined ? { origin } : { origin, visitor };
}

/**
 * The owner's preview (`POST /v1/widget/preview`): the load answer this account's pages get
 * for `calcId` (the same guarded pull, its outcome recorded), not counted and without a
 * domain check. With `draft`, an own calculator's draft instead of its published version,
 * pulled and merged through the draft's input keys: the builder's live preview. A template
 * has no draft, so `draft` changes nothing for one (docs/calculators.md).
 */
export async function previewCalculator(
  deps: ConfigDeps & PullDeps & { domains: DomainsStore },
  account: AccountRow,
  request: { calcId: string; draft?: boolean },
) {
  const { calcId } = request;
  let definition: Definition;
  let template: Template | undefined;
  if (request.draft && !getTemplate(calcId)) {
    const record = await deps.calculators.find(account.id, calcId);
    if (!record) throw new AppError('calculator_not_found', `You have no calculator "${calcId}".`);
    definition = JSON.parse(record.row.draft) as Definition;
    // Valid when saved; one an older release saved and this one refuses says why, as a publish would.
    const problems = validateDefinition(definition);
    if (problems.length > 0) throw new AppError('invalid_definition', refusalMessage(problems), problems);
  } else {
    const served = await deps.resolveCalculator(account.id, calcId);
    if (!served) {
      const hint = (await deps.calculators.find(account.id, calcId))
        ? ' It has no published version yet: publish it, or preview its draft with "draft": true.'
        : '';
      throw new AppError('calculator_not_found', `There is no calculator "${calcId}".${hint}`);
    }
    ({ definition, template } = served);
  }
  const { values } = await pullWebhook(deps, account, { definition }, await testVisit(deps, account.id, undefined));
  return { calcId, calculator: loadedCalculator(definition, template), values };
}
