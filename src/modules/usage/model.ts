import { DAY_PATTERN } from '../../http/days.ts';
import { t, type TSchema } from 'elysia';
import { EXAMPLE, Outcome } from '../../http/model.ts';
import { REFUSAL_REASONS } from '../../usage/refusals.ts';
import { SKIP_REASONS } from '../../webhook/outcomes.ts';

const day = (example: string) =>
  t.String({ pattern: DAY_PATTERN, description: 'A UTC day, YYYY-MM-DD', examples: [example] });

export const UsageQuery = t.Object({
  from: t.Optional(day(EXAMPLE.monthStart)),
  to: t.Optional(day(EXAMPLE.today)),
});

export const FunnelQuery = t.Object({
  ...UsageQuery.properties,
  calcId: t.Optional(
    t.String({ maxLength: 64, description: 'Only this calculator (default: all)', examples: [EXAMPLE.calcId] }),
  ),
  domain: t.Optional(
    t.String({
      maxLength: 300,
      description: 'Only this page origin, e.g. https://shop.example (default: all)',
      examples: [EXAMPLE.origin],
    }),
  ),
});

/** A funnel's four counts (docs/api.md, "Funnel"). */
const funnelCounts = (views: number, starts: number, completes: number, submits: number) => ({
  views: t.Integer({ description: 'At least half of the calculator visible for 1 s', examples: [views] }),
  starts: t.Integer({ description: 'The visitor changed an input (pre-fill never counts)', examples: [starts] }),
  completes: t.Integer({
    description: 'A finite main result after a change by the visitor',
    examples: [completes],
  }),
  submits: t.Integer({ description: 'Results the server accepted from the visitor', examples: [submits] }),
});

const rateOf = (description: string, example: number) =>
  t.Union([t.Number(), t.Null()], { description: `${description}; null when that count is 0`, examples: [example] });

const FunnelRates = t.Object(
  {
    viewToStart: rateOf('starts ÷ views', 0.32),
    startToComplete: rateOf('completes ÷ starts', 0.875),
    completeToSubmit: rateOf('submits ÷ completes', 0.25),
  },
  { description: 'Each step over the step before it, between 0 and 1 as a rule' },
);

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
  funnel: t.Array(
    t.Object({
      date: t.String({ description: 'UTC day, YYYY-MM-DD', examples: [EXAMPLE.today] }),
      calcId: t.String({ examples: [EXAMPLE.calcId] }),
      domain: t.String({ description: 'The page origin the steps came from', examples: [EXAMPLE.origin] }),
      ...funnelCounts(150, 48, 42, 10),
    }),
    {
      description:
        'Funnel steps per day, calculator and origin (docs/api.md, "Funnel"); non-zero rows sorted by date, calcId, domain',
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

export const FunnelReport = t.Object({
  from: t.String({ description: 'First day of the range (UTC), YYYY-MM-DD', examples: [EXAMPLE.monthStart] }),
  to: t.String({ description: 'Last day of the range (UTC), YYYY-MM-DD', examples: [EXAMPLE.today] }),
  calcId: t.Union([t.String(), t.Null()], { description: 'The calculator asked for; null: all', examples: [null] }),
  domain: t.Union([t.String(), t.Null()], {
    description: 'The page origin asked for, normalised; null: all',
    examples: [null],
  }),
  total: t.Object(
    { ...funnelCounts(1500, 480, 420, 105), rates: FunnelRates },
    { description: 'Every calculator asked for' },
  ),
  calculators: t.Array(
    t.Object({
      calcId: t.String({ examples: [EXAMPLE.calcId] }),
      ...funnelCounts(1500, 480, 420, 105),
      rates: FunnelRates,
    }),
    {
      description: 'The same per calculator, those with a step counted in the range, sorted by calcId',
    },
  ),
});
