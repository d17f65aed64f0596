import type { AccountOverviewBody } from '../../src/api-bodies.ts';
import { PLAN_NAMES, PLANS, setPlanCommand } from '../../src/plans.ts';

type Quota = AccountOverviewBody['usage'];
/** Who the warnings speak of: what the operator's command needs. */
type Owner = Pick<AccountOverviewBody['account'], 'email' | 'plan'>;

/** From this share of the month's quota on, owner commands warn. */
const WARN_PERCENT = 80;

/** Whole numbers for people, thousands separated, the same on every machine (scripts use --json). */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** "850 of 1,000 widget loads in 2026-11 (85%)" */
export function quotaSummary(quota: Quota): string {
  return `${formatCount(quota.used)} of ${formatCount(quota.limit)} widget loads in ${quota.period} (${quota.percent}%)`;
}

/** The first day of the month after `period` ("YYYY-MM"), when a spent quota starts again. */
function nextMonth(period: string): string {
  const [year = 0, month = 0] = period.split('-').map(Number);
  return month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, '0')}-01`;
}

/** What the operator of a self-hosted server can do about a spent quota: a plan up, or a larger quota. */
function moreLoads(account: Owner): string {
  const larger = `the ${PLAN_NAMES[account.plan]} plan's quota with \`calc serve --quota-${account.plan} N\``;
  const next = PLANS[PLANS.indexOf(account.plan) + 1];
  return next === undefined
    ? `Whoever runs this server can raise ${larger}.`
    : `Whoever runs this server can move the account up with \`${setPlanCommand(account.email, next)}\` or raise ${larger}.`;
}

/**
 * What an owner should hear about the quota: spent (loads are refused), nearly spent
 * (at 80 % or more), and the day it runs out at the last 7 days' rate when that is
 * before the month ends.
 */
export function quotaWarnings(quota: Quota, account: Owner): string[] {
  if (quota.percent >= 100)
    return [
      `Warning: this month's quota is used up (${formatCount(quota.used)} of ${formatCount(quota.limit)} loads): widgets show "calculator unavailable" until ${nextMonth(quota.period)} (UTC). ${moreLoads(account)}`,
    ];
  const lines: string[] = [];
  if (quota.percent >= WARN_PERCENT)
    lines.push(
      `Warning: ${quota.percent}% of this month's quota is used (${formatCount(quota.used)} of ${formatCount(quota.limit)} loads).`,
    );
  if (quota.runsOutOn)
    lines.push(
      `At the last 7 days' rate the quota runs out on ${quota.runsOutOn} (UTC); after that, widgets show "calculator unavailable" until ${nextMonth(quota.period)}.`,
    );
  return lines;
}
