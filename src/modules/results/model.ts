import { DAY_PATTERN } from '../../http/days.ts';
import { t } from 'elysia';
import { CALC_ID_PATTERN } from '../../definition/id.ts';
import { EXAMPLE } from '../../http/model.ts';
import { VALUE_SOURCES } from '../../definition/sources.ts';
import { WidgetRequest } from '../widget/index.ts';

const EXAMPLE_RESULT_ID = 'res_7Hq2mXw9LpA4vB1cZk3N';
const EXAMPLE_CURSOR = 'MjAyNi0wMy0xNFQwOToyNjo1My40MTJafHJlc183SHEybVh3OUxwQTR2QjFjWmszTg';

/** The most inputs a submission may name (a definition has at most 50, each with at most one alias). */
const MAX_INPUT_KEYS = 100;

export const SubmitRequest = t.Object({
  // The fields every widget route takes (apiKey, domain, calcId, context), then a result's.
  ...WidgetRequest.properties,
  inputs: t.Optional(
    t.Record(t.String({ maxLength: 40 }), t.Unknown(), {
      maxProperties: MAX_INPUT_KEYS,
      description:
        "The visitor's input values by input key, in the unit system `units` (a quantity under its canonical key or its display alias). Checked by the published definition's rules; the server computes the outputs itself (outputs a page sends are ignored).",
      examples: [{ weight: 82.5, height: 178 }],
    }),
  ),
  units: t.Optional(
    t.UnionEnum(['metric', 'imperial'], {
      description: "The unit system the visitor saw; the definition's first when left out",
    }),
  ),
  locale: t.Optional(
    t.String({
      maxLength: 35,
      description: "The widget's language (de, pt-BR…): the consent text is kept in it",
      examples: ['de'],
    }),
  ),
  contact: t.Optional(
    t.Object({
      email: t.Optional(t.String({ maxLength: 254, examples: ['jo@example.net'] })),
      name: t.Optional(t.String({ maxLength: 200, examples: ['Jo Bloggs'] })),
    }),
  ),
  consent: t.Optional(
    t.Boolean({
      description: 'true: the visitor ticked the consent checkbox (required when the config has a consent text)',
    }),
  ),
  page: t.Optional(
    t.String({
      description: "The page's address (location.href): kept when it is on `domain`; its UTM parameters are kept",
      examples: ['https://shop.example/mortgage?utm_source=newsletter&utm_campaign=spring'],
    }),
  ),
  sources: t.Optional(
    t.Record(t.String({ maxLength: 40 }), t.String({ maxLength: 20 }), {
      maxProperties: MAX_INPUT_KEYS,
      description: `Where each input's value came from (${VALUE_SOURCES.join(', ')}), as calc:ready reports it; kept as \`prefill\`, for information`,
      examples: [{ weight: 'webhook', height: 'typed' }],
    }),
  ),
  hp: t.Optional(
    t.String({
      maxLength: 1000,
      description: 'Honeypot: a field people never see. Any value: answered 202, stored nowhere',
      examples: [''],
    }),
  ),
});

export const SubmitAnswer = t.Object({
  id: t.String({ description: "The result's id", examples: [EXAMPLE_RESULT_ID] }),
});

const InputValue = t.Union([t.Number(), t.String(), t.Boolean()]);

/** A stored result, as the owner's routes answer it and the `result.submitted` event carries it. */
export const ResultJson = t.Object({
  id: t.String({ examples: [EXAMPLE_RESULT_ID] }),
  calcId: t.String({ examples: [EXAMPLE.calcId] }),
  domain: t.String({ description: "The page's origin", examples: [EXAMPLE.origin] }),
  createdAt: t.String({ format: 'date-time', examples: [EXAMPLE.now] }),
  units: t.UnionEnum(['metric', 'imperial'], { description: 'The unit system the visitor saw' }),
  inputs: t.Record(t.String(), InputValue, {
    description: 'The checked input values by canonical key (a quantity in its own unit); hidden inputs have none',
    examples: [{ weightKg: 82.5, heightCm: 178 }],
  }),
  outputs: t.Record(t.String(), t.Union([t.Number(), t.Null()]), {
    description: 'The outputs the server computed, by key (null when not a finite number)',
    examples: [{ bmi: 26.0 }],
  }),
  contact: t.Object(
    { email: t.Optional(t.String()), name: t.Optional(t.String()) },
    {
      description: 'What the visitor gave of the contact fields the config asks for',
      examples: [{ email: 'jo@example.net' }],
    },
  ),
  visitor: t.Union([t.String(), t.Null()], {
    description: "The visitor's `sub` from a valid context token, else null",
    examples: [EXAMPLE.visitor],
  }),
  page: t.Union([t.String(), t.Null()], {
    description: "The page's address without its fragment, when it was on the domain",
    examples: ['https://shop.example/health?utm_source=newsletter'],
  }),
  utm: t.Record(t.String(), t.String(), {
    description:
      "The page address's UTM parameters, without their `utm_` prefix: source, medium, campaign, term, content",
    examples: [{ source: 'newsletter' }],
  }),
  prefill: t.Record(t.String(), t.String(), {
    description: `Where each input's value came from, as the widget reported it (${VALUE_SOURCES.join(', ')})`,
    examples: [{ weight: 'webhook', height: 'typed' }],
  }),
  consent: t.Union(
    [
      t.Object({
        text: t.String({
          description: 'The consent text the visitor ticked, in their language',
          examples: ['Shop Example may email me about my result.'],
        }),
        locale: t.String({ description: 'That language', examples: ['en'] }),
        at: t.String({ format: 'date-time', examples: [EXAMPLE.now] }),
      }),
      t.Null(),
    ],
    { description: 'The consent given, when the config asked for one' },
  ),
});

export const ResultEnvelope = t.Object({ result: ResultJson });

export const ResultList = t.Object({
  results: t.Array(ResultJson),
  nextCursor: t.Union([t.String(), t.Null()], {
    description: 'Pass as `cursor` for older results; null at the end',
    examples: [EXAMPLE_CURSOR],
  }),
});

export const ResultDeleted = t.Object({ id: t.String({ examples: [EXAMPLE_RESULT_ID] }), deleted: t.Literal(true) });

export const ResultParam = t.Object({ id: t.String({ maxLength: 64, examples: [EXAMPLE_RESULT_ID] }) });

/** The filters lists and exports share. */
const filters = {
  from: t.Optional(
    t.String({ pattern: DAY_PATTERN, description: 'From this UTC day (YYYY-MM-DD)', examples: [EXAMPLE.monthStart] }),
  ),
  to: t.Optional(
    t.String({ pattern: DAY_PATTERN, description: 'Up to this UTC day, inclusive', examples: [EXAMPLE.today] }),
  ),
  calcId: t.Optional(t.String({ pattern: CALC_ID_PATTERN, examples: [EXAMPLE.calcId] })),
  domain: t.Optional(t.String({ maxLength: 300, description: "A page's origin", examples: [EXAMPLE.origin] })),
  email: t.Optional(
    t.String({
      maxLength: 254,
      description: "Only results whose contact email is this one (case-blind): a person's results, for their request",
      examples: ['jo@example.net'],
    }),
  ),
  visitor: t.Optional(
    t.String({
      maxLength: 128,
      description: "Only this visitor's results (context `sub`)",
      examples: [EXAMPLE.visitor],
    }),
  ),
};

export const ResultsQuery = t.Object({
  ...filters,
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 200, default: 50 })),
  cursor: t.Optional(
    t.String({ maxLength: 512, description: 'nextCursor of the page before', examples: [EXAMPLE_CURSOR] }),
  ),
});

export const ExportQuery = t.Object({
  ...filters,
  format: t.UnionEnum(['csv', 'jsonl'], {
    description: 'csv: one column per input and output; jsonl: one result per line',
  }),
});
