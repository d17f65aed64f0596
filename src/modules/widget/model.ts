import { t } from 'elysia';
import { catalogueCalculator } from '../../calculators/index.ts';
import { bmi } from '../../calculators/templates/bmi.ts';
import { EXAMPLE_DEFINITION } from '../../definition/example.ts';
import { Definition, Text } from '../../definition/schema.ts';
import { EXAMPLE } from '../../http/model.ts';
import { CONTACT_MODES } from '../../results/config.ts';
import { WIDGET_EVENTS } from '../../usage/funnel.ts';

export const WidgetRequest = t.Object({
  apiKey: t.String({ maxLength: 200, description: "The account's public key (pk_…)", examples: [EXAMPLE.apiKey] }),
  domain: t.String({
    maxLength: 300,
    description: "The embedding page's origin (location.origin)",
    examples: [EXAMPLE.origin],
  }),
  calcId: t.String({ maxLength: 64, description: 'Calculator id, e.g. bmi', examples: [EXAMPLE.calcId] }),
  // No maxLength: an over-long context is a bad context (no visitor), never a failed load.
  context: t.Optional(
    t.String({
      description:
        "Visitor context token (data-context): a JWT (HS256) the owner's backend minted with the signing secret; when valid, the webhook pull names the visitor",
      examples: [EXAMPLE.context],
    }),
  ),
});

export const VerifyAnswer = t.Object({ ok: t.Literal(true), calcId: t.String({ examples: [EXAMPLE.calcId] }) });

/** A catalogue calculator in a load answer: its public shape, whose other fields are described by GET /v1/calculators. */
const LoadedTemplate = t.Object(
  { id: t.String({ examples: [EXAMPLE.calcId] }), title: t.String(), definition: Definition },
  {
    // A schema, not `true`: the answer's other fields are kept, never cleaned away.
    additionalProperties: t.Unknown(),
    description:
      'A catalogue calculator: its public shape as GET /v1/calculators/:calcId shows it (category, description, unitSystems, fields, results, notes) with its `definition`',
    examples: [catalogueCalculator(bmi)],
  },
);

/** An owner's calculator in a load answer (docs/calculators.md, "Loading your calculators"). */
const LoadedOwnCalculator = t.Object(
  { id: t.String({ examples: [EXAMPLE_DEFINITION.id] }), title: Text, definition: Definition },
  {
    additionalProperties: false,
    description:
      "An owner's calculator: its id, its title (a text) and the definition served: the published version to widgets, the draft to a draft preview",
    examples: [{ id: EXAMPLE_DEFINITION.id, title: EXAMPLE_DEFINITION.title, definition: EXAMPLE_DEFINITION }],
  },
);

export const LoadAnswer = t.Object({
  calcId: t.String({ examples: [EXAMPLE.calcId] }),
  calculator: t.Union([LoadedTemplate, LoadedOwnCalculator], {
    description:
      'The calculator with its `definition`, which the widget renders when it does not bundle the calculator (docs/calculators.md)',
  }),
  values: t.Record(t.String(), t.Union([t.Number(), t.String(), t.Boolean()]), {
    description:
      'Pre-filled input values from the webhook, by input key: numbers, option values of selects, booleans of toggles; {} when none',
    examples: [EXAMPLE.values],
  }),
  results: t.Optional(
    t.Object(
      {
        button: t.Optional(Text),
        contact: t.Object({ email: t.UnionEnum(CONTACT_MODES), name: t.UnionEnum(CONTACT_MODES) }),
        consentText: t.Optional(Text),
      },
      {
        description:
          "Present when the widget offers to send the result (the owner's results config, docs/results.md): the button's text (the widget's own when absent), the contact fields to ask for, and the consent checkbox's text (the visitor must tick it when present); texts in the definition's text format",
        examples: [{ contact: { email: 'required', name: 'off' }, consentText: 'Shop Example may email me about it.' }],
      },
    ),
  ),
});

/** What a page reports of a calculator's funnel (docs/api.md, "Funnel"). */
export const EventsRequest = t.Object({
  apiKey: WidgetRequest.properties.apiKey,
  domain: WidgetRequest.properties.domain,
  calcId: WidgetRequest.properties.calcId,
  events: t.Array(
    t.UnionEnum(WIDGET_EVENTS, {
      description:
        'view: at least half of the calculator visible for 1 s; start: the visitor changed an input; complete: a finite result after a change by the visitor',
    }),
    {
      // Each step at most once: checked by the route (`uniqueItems` would cost microseconds).
      minItems: 1,
      maxItems: WIDGET_EVENTS.length,
      description:
        "Steps this page view reached since the page's last report for this element, each at most once (a repeated, unknown or `submit` step is 400)",
      examples: [['view', 'start']],
    },
  ),
});
