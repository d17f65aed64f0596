import { shellQuote } from './shell-word.ts';

/**
 * The plans an account can be on, cheapest first, and how people read their names. The
 * database column, the API schemas, the CLI's flags, the dashboard and the OpenAPI
 * document all take the list, the default and the webhook's plan from here.
 */
export const PLANS = ['free', 'base', 'extra'] as const;

export type Plan = (typeof PLANS)[number];

export const PLAN_NAMES: Readonly<Record<Plan, string>> = { free: 'Free', base: 'Base', extra: 'Extra' };

/** What a new account is on unless the operator says otherwise. */
export const DEFAULT_PLAN: Plan = 'free';

/** The pre-fill webhook is part of this plan only, and what it costs, as owners are told. */
export const WEBHOOK_PLAN: { readonly plan: Plan; readonly price: string } = {
  plan: 'extra',
  price: '50 USD per month',
};

export const hasWebhooks = (plan: Plan): boolean => plan === WEBHOOK_PLAN.plan;

/**
 * How a plan is changed on a self-hosted server: the operator runs this. Said wherever an
 * owner meets a plan limit, so that the message is not a dead end.
 */
export const setPlanCommand = (email: string, plan: Plan): string =>
  `calc admin accounts set-plan --email ${shellQuote(email)} --plan ${plan}`;

/** Why an account below the webhook's plan cannot save one, and what to do about it. */
export const webhookPlanRequired = (account: { email: string; plan: Plan }): string =>
  `Webhooks need the ${PLAN_NAMES[WEBHOOK_PLAN.plan]} plan (${WEBHOOK_PLAN.price}); this account is on the ${PLAN_NAMES[account.plan]} plan. ` +
  `Whoever runs this server changes plans with \`${setPlanCommand(account.email, WEBHOOK_PLAN.plan)}\`.`;

/** Calculators of their own an account may have on each plan, unless the operator says otherwise (`--calculators-free` …). */
export const DEFAULT_CALCULATOR_LIMITS: Readonly<Record<Plan, number>> = { free: 1, base: 10, extra: 100 };

/** The cheapest plan that allows more than `count` calculators of one's own, if any. */
export function planWithMoreCalculators(limits: Readonly<Record<Plan, number>>, count: number): Plan | null {
  return PLANS.find((plan) => limits[plan] > count) ?? null;
}

/**
 * Why an account cannot create another calculator, and what to do about it: the plan
 * that allows more (and how the operator moves the account to it), or deleting one.
 */
export function calculatorLimitReached(
  account: { email: string; plan: Plan },
  limits: Readonly<Record<Plan, number>>,
  count: number,
): string {
  const limit = limits[account.plan];
  const upgrade = planWithMoreCalculators(limits, count);
  const calculators = (n: number) => `${n} calculator${n === 1 ? '' : 's'}`;
  return (
    `The ${PLAN_NAMES[account.plan]} plan allows ${calculators(limit)} of your own, and this account has ${count}. ` +
    (upgrade === null
      ? 'No plan allows more. '
      : `The ${PLAN_NAMES[upgrade]} plan allows ${limits[upgrade]}: whoever runs this server changes plans with \`${setPlanCommand(account.email, upgrade)}\`. `) +
    'Deleting a calculator frees its place.'
  );
}
/** Plans that may keep visitors' results and deliver them to a results endpoint (docs/results.md). */
const RESULTS_PLANS: readonly Plan[] = ['base', 'extra'];

export const hasResults = (plan: Plan): boolean => RESULTS_PLANS.includes(plan);

/** Why an account below the results' plans cannot use them, and what to do about it. */
export const resultsPlanRequired = (account: { email: string; plan: Plan }): string =>
  `Results and their delivery need the ${PLAN_NAMES.base} or ${PLAN_NAMES.extra} plan; this account is on the ${PLAN_NAMES[account.plan]} plan. ` +
  `Whoever runs this server changes plans with \`${setPlanCommand(account.email, 'base')}\`.`;
