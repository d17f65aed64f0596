import { t } from 'elysia';
import { Outcome } from '../widget-config/model.ts';

const Day = t.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'A UTC day, YYYY-MM-DD' });

export const UsageQuery = t.Object({
  from: t.Optional(Day),
  to: t.Optional(Day),
});

/** This month's quota: loads used (including those not yet written to disk) of the limit. */
export const QuotaPeriod = t.Object({
  period: t.String({ description: 'Calendar month in UTC, YYYY-MM' }),
  used: t.Integer(),
  limit: t.Integer(),
});

export const QuotaStatus = t.Object({
  ...QuotaPeriod.properties,
  percent: t.Number({ description: 'Share of the limit used, floored to 0.1: 100 means the quota is spent' }),
  runsOutOn: t.Union([t.String(), t.Null()], {
    description:
      "UTC day (YYYY-MM-DD) the month's quota runs out at the last 7 days' rate, when that is before the month ends; else null",
  }),
});

export const UsageReport = t.Object({
  from: t.String({ description: 'First day of the range (UTC), YYYY-MM-DD' }),
  to: t.String({ description: 'Last day of the range (UTC), YYYY-MM-DD' }),
  period: QuotaPeriod,
  total: t.Integer({ description: 'Sum of loads over rows' }),
  rows: t.Array(
    t.Object({
      date: t.String({ description: 'UTC day, YYYY-MM-DD' }),
      calcId: t.String(),
      domain: t.String({ description: 'The page origin the load came from' }),
      loads: t.Integer(),
    }),
    { description: 'Counted loads per day, calculator and origin; non-zero rows sorted by date, calcId, domain' },
  ),
  webhook: t.Array(
    t.Object({
      date: t.String({ description: 'UTC day, YYYY-MM-DD' }),
      calcId: t.String(),
      outcome: Outcome,
      calls: t.Integer(),
    }),
    { description: 'Webhook calls made for loads per day, calculator and outcome; sorted by date, calcId, outcome' },
  ),
});
