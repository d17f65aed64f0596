/**
 * The plans an account can be on, cheapest first, and how people read their names. The
 * database column, the API schemas, the CLI's flags and the OpenAPI document all take
 * the list from here.
 */
export const PLANS = ['free', 'base', 'extra'] as const;

export type Plan = (typeof PLANS)[number];

export const PLAN_NAMES: Readonly<Record<Plan, string>> = { free: 'Free', base: 'Base', extra: 'Extra' };
