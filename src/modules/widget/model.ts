import { t } from 'elysia';
import { catalogueCalculator } from '../../calculators/index.ts';
import { CatalogueCalculator } from '../../calculators/schema.ts';
import { bmi } from '../../calculators/templates/bmi.ts';
import { EXAMPLE } from '../../http/model.ts';
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

export const LoadAnswer = t.Object({
  calcId: t.String({ examples: [EXAMPLE.calcId] }),
  calculator: t.Composite([CatalogueCalculator], {
    description:
      "The calculator's public shape (as GET /v1/calculators/:calcId shows it) with its `definition`, which the widget renders when it does not bundle the calculator (docs/calculators.md)",
    examples: [catalogueCalculator(bmi)],
  }),
  values: t.Record(t.String(), t.Union([t.Number(), t.String(), t.Boolean()]), {
    description:
      'Pre-filled input values from the webhook, by input key: numbers, option values of selects, booleans of toggles; {} when none',
    examples: [EXAMPLE.values],
  }),
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
