import { Type } from '@sinclair/typebox';
import { t, type TSchema } from 'elysia';
import { CALC_ID_PATTERN } from '../definition/id.ts';
import { Problem } from '../definition/schema.ts';
import { ERROR_STATUS, type ErrorCode } from '../errors.ts';
import { PLANS } from '../plans.ts';
import { PULL_OUTCOMES } from '../webhook/outcomes.ts';

/**
 * One consistent story for the reference's examples (the owner of shop.example, signed in on
 * 14 March 2026), in the formats the server really produces: the schemas' `examples` (an
 * annotation; validation ignores it) take these, and the OpenAPI document samples them.
 */
export const EXAMPLE = {
  email: 'owner@shop.example',
  password: 'correct horse battery',
  newPassword: 'battery staple horse correct',
  accountId: 'acct_gIk7IMiKvwyRoaGe',
  /** `pk_` + 32 base62, as `newApiKey` makes them. */
  apiKey: 'pk_2QcRBAjcQykXt3RmUnKVa2WS9eaRbtxv',
  signingSecret: 'whsec_G3ZmA7eynsMH8mlZqZeFSsF51MPB16FU',
  /** A session JWT (HS256) for the account above, issued at `now`, valid 7 days. */
  token:
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJhY2N0X2dJazdJTWlLdnd5Um9hR2UiLCJpYXQiOjE3NzM0ODA0MTMuNDEyLCJleHAiOjE3NzQwODUyMTN9.2N-uELCVD7ND4WwAQZ2Z4nr8fu2Z-ljnhySm_zueaxQ',
  /** A visitor context token for `cust_42` on bmi at shop.example, signed with the secret above. */
  context:
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJjdXN0XzQyIiwiY2FsYyI6ImJtaSIsIm9yaWdpbiI6Imh0dHBzOi8vc2hvcC5leGFtcGxlIiwiZXhwIjoxNzczNDg0MDEzfQ.U2HV33BMaKWoDu4SWilTWQsFlaeE2WNJ6dPQkeLFtlM',
  visitor: 'cust_42',
  calcId: 'bmi',
  origin: 'https://shop.example',
  webhookUrl: 'https://api.shop.example/prefill',
  publicUrl: 'https://calc.shop.example',
  /** Pre-fill values a webhook answers for bmi. */
  values: { weightKg: 82.5, heightCm: 178 },
  accountCreatedAt: '2026-02-03T10:12:44.518Z',
  domainCreatedAt: '2026-02-03T10:15:02.731Z',
  now: '2026-03-14T09:26:53.412Z',
  tokenExpiresAt: '2026-03-21T09:26:53.000Z',
  previousSecretValidUntil: '2026-03-15T09:26:53.412Z',
  lastPullAt: '2026-03-14T09:21:07.164Z',
  period: '2026-03',
  monthStart: '2026-03-01',
  today: '2026-03-14',
  runsOutOn: '2026-03-27',
  /** As `requestIdOf` generates them: the process's prefix and a counter. */
  requestId: '3f9c0a5e7b21-1k2',
} as const;

/**
 * What `error.details` holds, for the codes that carry any: each code's shape, so a client
 * that tells errors apart by `code` gets typed details. Every other code has none.
 */
export const ERROR_DETAILS = {
  invalid_request: t.Optional(
    t.Union([
      t.Array(
        t.Object({
          field: t.String({ description: 'The offending field, dotted (`config.webhook.url`); empty for the body' }),
          message: t.String(),
        }),
        { maxItems: 10, description: 'Up to 10 offending fields, the first one named by `message`' },
      ),
      t.Object(
        { headers: t.Array(t.String()) },
        {
          description:
            'A webhook URL moved to another origin: every header sent back redacted, whose real value must be sent again',
        },
      ),
    ]),
  ),
  invalid_definition: t.Array(Problem, { description: 'Every problem found in the definition' }),
  plan_limit: t.Object({
    plan: t.UnionEnum(PLANS, { description: "The account's plan" }),
    limit: Type.Integer({ minimum: 0, description: 'Calculators of its own the plan allows' }),
    planWithMore: t.Union([t.UnionEnum(PLANS), t.Null()], {
      description: 'The first plan that allows more; null: none',
    }),
  }),
} satisfies Partial<Record<ErrorCode, TSchema>>;

// Closed: a client can rely on `details` being absent where no shape is given.
const closed = { additionalProperties: false } as const;
const plainCodes = (Object.keys(ERROR_STATUS) as ErrorCode[]).filter((code) => !(code in ERROR_DETAILS));

/** The one error envelope, as a schema for the OpenAPI document: one shape per code with details, one for the rest. */
export const ErrorResponse = t.Object(
  {
    error: t.Union([
      t.Object({ code: t.Union(plainCodes.map((code) => t.Literal(code))), message: t.String() }, closed),
      ...Object.entries(ERROR_DETAILS).map(([code, details]) =>
        t.Object({ code: t.Literal(code), message: t.String(), details }, closed),
      ),
    ]),
  },
  { description: 'Error envelope' },
);

/** A webhook pull's outcome, as the owner's diagnostics and usage history report it. */
export const Outcome = t.UnionEnum(PULL_OUTCOMES);

/** Calculator ids as they appear in paths: lower-case words joined by dashes. */
export const CalcIdParam = t.Object({ calcId: t.String({ pattern: CALC_ID_PATTERN, examples: [EXAMPLE.calcId] }) });

/**
 * `detail.responses` for an answer the handler serialises itself: documented in the
 * OpenAPI document by its schema, not checked per request. The document builder only
 * reads the schema as JSON, so the OpenAPI typing is not needed.
 */
export function documentedOk(schema: TSchema) {
  return documentedAnswer('OK', schema);
}

/** The same, for an answer that needs its own words (one of several successful statuses). */
export function documentedAnswer(description: string, schema: TSchema) {
  return { description, content: { 'application/json': { schema: schema as Record<string, unknown> } } };
}
