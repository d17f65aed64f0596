import type { LimitsBody } from '../../src/api-bodies.ts';
import { formatDetails } from './details.ts';
import { formatCount } from './quota.ts';

type Limits = LimitsBody['limits'];

/** Each limit as the CLI names it (`calc limits set --NAME`, `calc limits clear NAME`) and as the API does. */
export const LIMIT_NAMES = {
  'loads-per-day': 'loadsPerDay',
  'loads-per-day-per-domain': 'loadsPerDayPerDomain',
  'pulls-per-second': 'pullsPerSecond',
  'register-domain': 'registerDomain',
} as const satisfies Record<string, keyof Limits>;

export type LimitName = keyof typeof LIMIT_NAMES;

const cap = (value: number | null, unit: string) => (value === null ? 'no cap' : `${formatCount(value)} ${unit}`);

/** The owner's limits for people. */
export function describeLimits(limits: Limits): string {
  return formatDetails([
    ['Loads a day', cap(limits.loadsPerDay, 'a UTC day, in all')],
    ['Loads a day per domain', cap(limits.loadsPerDayPerDomain, 'a UTC day from each page origin')],
    ['Pulls a second', cap(limits.pullsPerSecond, 'webhook pulls a second, per server')],
    [
      'Register-domain',
      limits.registerDomain ? 'on (pages may ask to be added)' : 'off (pages cannot ask to be added)',
    ],
  ]);
}
