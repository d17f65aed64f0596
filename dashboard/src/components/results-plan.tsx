import { hasResults, PLAN_NAMES, type Plan, setPlanCommand } from '../../../src/plans.ts';

/** Why results are off on this account's plan, and the operator's command that changes it; nothing on Base and Extra. */
export function ResultsPlanWarning(props: { account: { email: string; plan: Plan } }) {
  const { account } = props;
  if (hasResults(account.plan)) return null;
  return (
    <p class="warning">
      Results need the {PLAN_NAMES.base} or {PLAN_NAMES.extra} plan; this account is on the {PLAN_NAMES[account.plan]}{' '}
      plan. Whoever runs this server changes plans with <code>{setPlanCommand(account.email, 'base')}</code>.
    </p>
  );
}
