import type { AccountRow } from '../../db/accounts-store.ts';
import { dayOf, type UsageCounter } from '../../usage/counter.ts';
import { isSkipped, NOT_CALLED } from '../../webhook/outcomes.ts';
import type { Prefill } from '../widget/index.ts';
import { type PullDeps, type PulledCalculator, type PullResult, pullWebhook } from './pull.ts';

/**
 * A widget load's pre-fill: the guarded webhook pull, counted in the owner's usage as a
 * call, or as a skipped pull when no call was made (`busy`, `capped`); a test-webhook or
 * the owner's preview is not counted. Answers without a promise when the pull does:
 * below Extra, that is most loads.
 */
export function loadPrefill(deps: PullDeps & { usage: Pick<UsageCounter, 'countCall' | 'countSkipped'> }): Prefill {
  const counted = (account: AccountRow, calculator: PulledCalculator, result: PullResult) => {
    const { outcome } = result;
    const calcId = calculator.definition.id;
    if (isSkipped(outcome)) deps.usage.countSkipped(account.id, dayOf(deps.now()), calcId, outcome);
    else if (!NOT_CALLED.has(outcome)) deps.usage.countCall(account.id, dayOf(deps.now()), calcId, outcome);
    return result.values;
  };
  return (account, calculator, visit) => {
    const pulled = pullWebhook(deps, account, calculator, visit);
    return pulled instanceof Promise
      ? pulled.then((result) => counted(account, calculator, result))
      : counted(account, calculator, pulled);
  };
}
