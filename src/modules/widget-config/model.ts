import { t } from 'elysia';
import { REDACTED } from '../../webhook/headers.ts';
import { PULL_OUTCOMES } from '../../webhook/outcomes.ts';
import { VISITOR_PATTERN } from '../visitor-context/token.ts';

const WebhookInput = t.Object({
  url: t.String({
    maxLength: 2048,
    description: "http(s) URL of the owner's endpoint; must resolve to public addresses only",
  }),
  headers: t.Optional(
    t.Record(t.String(), t.String(), {
      description: `Sent with the GET; values are stored encrypted and shown as "${REDACTED}". Send "${REDACTED}" back to keep a stored value.`,
    }),
  ),
});

export const ConfigBody = t.Object({
  config: t.Object({ webhook: t.Optional(t.Union([WebhookInput, t.Null()])) }),
});

/** The dashboard's live preview asks for one calculator as its account would load it. */
export const PreviewBody = t.Object({ calcId: t.String({ maxLength: 64, description: 'Calculator id, e.g. bmi' }) });

export const Outcome = t.UnionEnum(PULL_OUTCOMES);

/** The last webhook outcome of a calculator, for the owner's diagnostics. */
export const WebhookStatus = t.Object({
  at: t.String({ format: 'date-time' }),
  outcome: Outcome,
  httpStatus: t.Union([t.Integer(), t.Null()]),
  durationMs: t.Number(),
});

export const ConfigAnswer = t.Object({
  calcId: t.String(),
  config: t.Object({
    webhook: t.Optional(t.Object({ url: t.String(), headers: t.Record(t.String(), t.Literal(REDACTED)) })),
  }),
  webhookStatus: t.Union([WebhookStatus, t.Null()]),
});

export const TestAnswer = t.Object({
  outcome: Outcome,
  httpStatus: t.Union([t.Integer(), t.Null()]),
  durationMs: t.Number(),
  values: t.Record(t.String(), t.Union([t.Number(), t.String()])),
  ignoredKeys: t.Array(t.String()),
});

export const TestBody = t.Object({
  visitor: t.Optional(
    t.String({
      pattern: VISITOR_PATTERN,
      description: 'Make the test pull as this visitor (Calc-Visitor): 1–128 printable ASCII characters',
    }),
  ),
});
