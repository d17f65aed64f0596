import { Type } from '@sinclair/typebox';
import { t } from 'elysia';

/** The largest cap: PostgreSQL's `integer`, which holds it. */
const MAX_CAP = 2_147_483_647;

// TypeBox's own integer: Elysia's `t.Integer` also takes numeric strings ("100"), and a cap is a JSON number.
const cap = (description: string, example: number) =>
  t.Union([Type.Integer({ minimum: 1, maximum: MAX_CAP }), t.Null()], { description, examples: [example] });

const LOADS_PER_DAY = 'Widget loads a day (UTC) in all; past it loads answer 429 cap_reached. null: no cap';
const LOADS_PER_DAY_PER_DOMAIN =
  "Widget loads a day (UTC) from one page origin; past it that origin's loads answer 429 cap_reached. null: no cap";
const PULLS_PER_SECOND =
  'Webhook pulls a second; pulls over it are skipped (outcome capped) and the load answers its defaults. null: no cap';
const REGISTER_DOMAIN =
  'Whether pages may ask to register their origin (POST /v1/widget/register-domain); off, it answers 403 register_domain_disabled';

export const Limits = t.Object({
  loadsPerDay: cap(LOADS_PER_DAY, 5000),
  loadsPerDayPerDomain: cap(LOADS_PER_DAY_PER_DOMAIN, 500),
  pullsPerSecond: cap(PULLS_PER_SECOND, 20),
  registerDomain: t.Boolean({ description: REGISTER_DOMAIN, examples: [true] }),
});

export const LimitsEnvelope = t.Object({ limits: Limits });

/** Sets the fields it names, and only those: `null` clears a cap (and turns register-domain back on). */
export const LimitsRequest = t.Object({
  loadsPerDay: t.Optional(cap(LOADS_PER_DAY, 5000)),
  loadsPerDayPerDomain: t.Optional(cap(LOADS_PER_DAY_PER_DOMAIN, 500)),
  pullsPerSecond: t.Optional(cap(PULLS_PER_SECOND, 20)),
  registerDomain: t.Optional(
    t.Union([t.Boolean(), t.Null()], { description: `${REGISTER_DOMAIN}. null: back to on`, examples: [false] }),
  ),
});
