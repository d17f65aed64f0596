import { t, type TSchema } from 'elysia';
import { EXAMPLE, Outcome } from '../../http/model.ts';
import { REFUSAL_REASONS } from '../../usage/refusals.ts';
import { SKIP_REASONS } from '../../webhook/outcomes.ts';

const DAY_PATTERN = '^[0-9]{4}-[0-9]{2}-[0-9]{2}$';
const day = (example: string) =>
  t.String({ pattern: DAY_PATTERN, description: 'A UTC day, YYYY-MM-DD', examples: [example] });

export const UsageQuery = t.Object({
  from: t.Optional(day(EXAMPLE.monthStart)),
  to: t.Optional(day(EXAMPLE.today)),
});

/** This month's quota: loads used (including those not yet written to disk) of the limit. */
export const QuotaPeriod = t.Object({
  period: t.String({ description: 'Calendar month in UTC, YYYY-MM', examples: [EXAMPLE.period] }),
  used: t.Integer({ examples: [412] }),
  limit: t.Integer({ examples: [1000] }),
});

export const QuotaStatus = t.Object({
  ...QuotaPeriod.properties,
  percent: t.Number({
    description: 'Share of the limit used, floored to 0.1: 100 means the quota is spent',
    examples: [41.2],
  }),
  runsOutOn: t.Union([t.String(), t.Null()], {
    description:
      "UTC day (YYYY-MM-DD) the month's quota runs out at the last 7 days' rate, when that is before the month ends; else null",
    examples: [EXAMPLE.runsOutOn],
  }),
});

/** A per-day count by reason (refused calls, skipped pulls). */
const reasonRow = <R extends TSchema>(reason: R, example: number) =>
  t.Object({
    date: t.String({ description: 'UTC day, YYYY-MM-DD', examples: [EXAMPLE.today] }),
    calcId: t.String({ examples: [EXAMPLE.calcId] }),
    reason,
    count: t.Integer({ examples: [example] }),
  });

export const UsageReport = t.Object({
  from: t.String({ description: 'First day of the range (UTC), YYYY-MM-DD', examples: [EXAMPLE.monthStart] }),
  to: t.String({ description: 'Last day of the range (UTC), YYYY-MM-DD', examples: [EXAMPLE.today] }),
  period: QuotaPeriod,
  total: t.Integer({ description: 'Sum of loads over rows', examples: [412] }),
  rows: t.Array(
    t.Object({
      date: t.String({ description: 'UTC day, YYYY-MM-DD', examples: [EXAMPLE.today] }),
      calcId: t.String({ examples: [EXAMPLE.calcId] }),
      domain: t.String({ description: 'The page origin the load came from', examples: [EXAMPLE.origin] }),
      loads: t.Integer({ examples: [214] }),
    }),
    {
      description: 'Counted loads per day, calculator and origin; non-zero rows sorted by date, calcId, domain',
      examples: [
        [
          { date: '2026-03-13', calcId: EXAMPLE.calcId, domain: EXAMPLE.origin, loads: 198 },
          { date: EXAMPLE.today, calcId: EXAMPLE.calcId, domain: EXAMPLE.origin, loads: 214 },
        ],
      ],
    },
  ),
  webhook: t.Array(
    t.Object({
      date: t.String({ description: 'UTC day, YYYY-MM-DD', examples: [EXAMPLE.today] }),
      calcId: t.String({ examples: [EXAMPLE.calcId] }),
      outcome: Outcome,
      calls: t.Integer({ examples: [214] }),
    }),
    {
      description:
        'Webhook calls made for loads per day, calculator and outcome (attempted calls only); sorted by date, calcId, outcome',
    },
  ),
  refused: t.Array(
    reasonRow(t.UnionEnum(REFUSAL_REASONS, { description: 'The error code the call was refused with' }), 12),
    {
      description:
        'Widget calls with this API key that were refused, per day, calculator (only calculators that exist) and reason; sorted by date, calcId, reason',
    },
  ),
  skipped: t.Array(
    reasonRow(
      t.UnionEnum(SKIP_REASONS, { description: 'busy: too many calls in flight; capped: over your pullsPerSecond' }),
      3,
    ),
    {
      description:
        'Webhook pulls a load was due that were skipped (no call made; the load got its defaults), per day, calculator and reason; sorted by date, calcId, reason',
    },
  ),
});
