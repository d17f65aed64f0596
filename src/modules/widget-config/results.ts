import type { Static } from '@sinclair/typebox';
import type { AccountRow } from '../../db/accounts-store.ts';
import type { ResultsConfigStore } from '../../db/results-config-store.ts';
import { AppError, invalidRequest } from '../../errors.ts';
import { hasResults, resultsPlanRequired } from '../../plans.ts';
import { configProblems, type ResultsConfig } from '../../results/config.ts';
import type { ConfigRequest } from './model.ts';

type ResultsInput = Static<typeof ConfigRequest>['config']['results'];

/**
 * What a PUT does to the results config, checked in the documented order after the
 * calculator (docs/api.md, "Order of checks"): the plan (403: turning results on needs
 * Base or Extra; turning them off or removing them works on any plan), then the rules the
 * schema cannot say (400). Answers the JSON to save, or undefined to leave it as it is.
 */
export function checkResults(account: AccountRow, input: ResultsInput): string | undefined {
  if (input === undefined) return undefined;
  if (input.enabled && !hasResults(account.plan)) throw new AppError('plan_required', resultsPlanRequired(account));
  const config: ResultsConfig = { enabled: input.enabled };
  if (input.button !== undefined) config.button = input.button;
  if (input.contact !== undefined) config.contact = { email: 'off', name: 'off', ...input.contact };
  if (input.consentText !== undefined) config.consentText = input.consentText;
  const problems = configProblems(config);
  if (problems.length > 0) throw invalidRequest(`${problems[0]?.field}: ${problems[0]?.message}.`, problems);
  return JSON.stringify(config);
}

/** The saved config of a calculator, as GET shows it. */
export async function savedResults(
  deps: { resultsConfigs: ResultsConfigStore },
  accountId: string,
  calcId: string,
): Promise<ResultsConfig | undefined> {
  const json = await deps.resultsConfigs.find(accountId, calcId);
  return json === undefined ? undefined : (JSON.parse(json) as ResultsConfig);
}
