import { t } from 'elysia';
import { EXAMPLE, Outcome } from '../../http/model.ts';
import { REDACTED } from '../../webhook/headers.ts';
import { VISITOR_PATTERN } from '../../security/visitor-context.ts';
import { Text } from '../../definition/schema.ts';
import { CONTACT_MODES } from '../../results/config.ts';

const ContactMode = t.UnionEnum(CONTACT_MODES, {
  description: 'required: the visitor must fill it; optional: may; off: not asked (the default)',
});

/** A calculator's results config (src/results/config.ts; docs/results.md, "Asking visitors for their result"). */
const ResultsConfigSchema = t.Object(
  {
    enabled: t.Boolean({ description: 'Whether the widget offers to send the result' }),
    button: t.Optional(Text),
    contact: t.Optional(t.Object({ email: t.Optional(ContactMode), name: t.Optional(ContactMode) })),
    consentText: t.Optional(Text),
  },
  {
    description:
      'Whether visitors may send their result (Base and Extra plans; docs/results.md). Left out of a PUT: unchanged; `enabled: false` turns results off and keeps the texts. A PUT that names results and not webhook leaves the webhook as it is.',
    examples: [
      {
        enabled: true,
        button: { en: 'Email me this quote', de: 'Angebot per E-Mail' },
        contact: { email: 'required', name: 'optional' },
        consentText: 'I agree that Shop Example may contact me about this quote.',
      },
    ],
  },
);

const WebhookInput = t.Object({
  url: t.String({
    maxLength: 2048,
    description: "http(s) URL of the owner's endpoint; must resolve to public addresses only",
    examples: [EXAMPLE.webhookUrl],
  }),
  headers: t.Optional(
    t.Record(t.String(), t.String(), {
      description: `Sent with the GET; values are stored encrypted and shown as "${REDACTED}". Send "${REDACTED}" back to keep a stored value.`,
      examples: [{ Authorization: 'Bearer shop-prefill-5f2c9e81' }],
    }),
  ),
});

export const ConfigRequest = t.Object(
  {
    config: t.Object({
      webhook: t.Optional(t.Union([WebhookInput, t.Null()])),
      results: t.Optional(ResultsConfigSchema),
    }),
  },
  {
    // A body names the parts it changes: the sample saves a webhook (the results config's
    // fields show their own example).
    examples: [
      { config: { webhook: { url: EXAMPLE.webhookUrl, headers: { Authorization: 'Bearer shop-prefill-5f2c9e81' } } } },
    ],
  },
);

/** The dashboard's live preview asks for one calculator as its account would load it. */
export const PreviewRequest = t.Object({
  calcId: t.String({ maxLength: 64, description: 'Calculator id, e.g. bmi', examples: [EXAMPLE.calcId] }),
  draft: t.Optional(
    t.Boolean({
      description:
        "true: one of your own calculators as its draft (published or not), pulled and merged through the draft's input keys; ignored for a catalogue calculator, which has no draft",
      examples: [true],
    }),
  ),
});

/** The last webhook outcome of a calculator, for the owner's diagnostics. */
export const WebhookStatus = t.Object({
  at: t.String({ format: 'date-time', examples: [EXAMPLE.lastPullAt] }),
  outcome: Outcome,
  httpStatus: t.Union([t.Integer(), t.Null()], { examples: [200] }),
  durationMs: t.Number({ examples: [143] }),
});

export const ConfigAnswer = t.Object({
  calcId: t.String({ examples: [EXAMPLE.calcId] }),
  config: t.Object({
    webhook: t.Optional(
      t.Object({
        url: t.String({ examples: [EXAMPLE.webhookUrl] }),
        headers: t.Record(t.String(), t.Literal(REDACTED), { examples: [{ Authorization: REDACTED }] }),
      }),
    ),
    results: t.Optional(ResultsConfigSchema),
  }),
  webhookStatus: t.Union([WebhookStatus, t.Null()]),
});

export const TestAnswer = t.Object({
  outcome: Outcome,
  httpStatus: t.Union([t.Integer(), t.Null()], { examples: [200] }),
  durationMs: t.Number({ examples: [143] }),
  values: t.Record(t.String(), t.Union([t.Number(), t.String(), t.Boolean()]), { examples: [EXAMPLE.values] }),
  ignoredKeys: t.Array(t.String(), { examples: [['loyaltyTier']] }),
});

export const TestWebhookRequest = t.Object({
  visitor: t.Optional(
    t.String({
      pattern: VISITOR_PATTERN,
      description: 'Make the test pull as this visitor (Calc-Visitor): 1–128 printable ASCII characters',
      examples: [EXAMPLE.visitor],
    }),
  ),
});
