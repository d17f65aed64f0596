import { t } from 'elysia';

export const WidgetBody = t.Object({
  apiKey: t.String({ maxLength: 200, description: "The account's public key (pk_…)" }),
  domain: t.String({ maxLength: 300, description: "The embedding page's origin (location.origin)" }),
  calcId: t.String({ maxLength: 64, description: 'Calculator id, e.g. bmi' }),
  // No maxLength: an over-long context is a bad context (no visitor), never a failed load.
  context: t.Optional(
    t.String({
      description:
        "Visitor context token (data-context): a JWT (HS256) the owner's backend minted with the signing secret; when valid, the webhook pull names the visitor",
    }),
  ),
});

export const VerifyAnswer = t.Object({ ok: t.Literal(true), calcId: t.String() });

export const LoadAnswer = t.Object({
  calcId: t.String(),
  calculator: t.Record(t.String(), t.Unknown(), { description: "The calculator's public definition" }),
  values: t.Record(t.String(), t.Union([t.Number(), t.String()]), {
    description: 'Pre-filled field values from the webhook; {} when none',
  }),
});
