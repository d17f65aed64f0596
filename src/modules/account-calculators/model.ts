import { type Static, t } from 'elysia';
import { CALC_ID_PATTERN } from '../../definition/id.ts';
import { CALCULATOR_STATUSES } from '../../db/custom-calculators-store.ts';
import { DocumentedDefinition as Definition, EXAMPLE_DEFINITION } from '../../definition/example.ts';
import { Text, UnitSystem } from '../../definition/schema.ts';
import { EXAMPLE } from '../../http/model.ts';

const calcId = (description: string, example = EXAMPLE_DEFINITION.id) =>
  t.String({ pattern: CALC_ID_PATTERN, description, examples: [example] });

const at = (description: string, example: string = EXAMPLE.now) =>
  t.String({ format: 'date-time', description, examples: [example] });

const Status = t.UnionEnum(CALCULATOR_STATUSES, {
  description:
    '`draft`: never published; `published`: the draft is the published version; `changed`: published, and the draft has changed since.',
  examples: ['changed'],
});

const PublishedVersion = t.Union([t.Integer({ minimum: 1 }), t.Null()], {
  description: 'The version widgets load; null until the first publish.',
  examples: [3],
});

export const CalculatorIdParams = t.Object({ id: calcId("The calculator id (its definition's `id`).") });

export const VersionParams = t.Object({
  id: calcId("The calculator id (its definition's `id`)."),
  n: t.String({
    pattern: '^[1-9][0-9]{0,8}$',
    description: 'A version number, as listed by …/versions.',
    examples: ['2'],
  }),
});

export const DefinitionRequest = t.Object({ definition: Definition });

export const CreateCalculatorRequest = t.Union([
  DefinitionRequest,
  t.Object({
    from: calcId('Copy this catalogue calculator (or one of your own: its draft) into a new draft.', 'loan'),
    id: t.Optional(
      calcId("The copy's id; by default `<from>-copy`, then `<from>-copy-2`, … whichever is free.", 'loan-copy'),
    ),
  }),
]);

export const EvaluateRequest = t.Object({
  inputs: t.Record(t.String(), t.Union([t.Number(), t.String(), t.Boolean()]), {
    description:
      'Values by input key, in the unit system evaluated: numbers, option values of selects, true/false for toggles. An input left out takes its default.',
    examples: [{ area: 80, finish: 'gloss', ceiling: true }],
  }),
  draft: t.Optional(
    t.Boolean({ description: 'Evaluate the draft instead of the published version.', examples: [true] }),
  ),
  units: t.Optional({
    ...UnitSystem,
    description: "The unit system; by default the definition's first.",
    examples: ['metric'],
  }),
});

const Summary = t.Object({
  id: calcId('The calculator id.'),
  title: Text,
  status: Status,
  publishedVersion: PublishedVersion,
  updatedAt: at('When the draft was last saved or published.'),
});

export const AccountCalculatorList = t.Object({ calculators: t.Array(Summary) });

export const AccountCalculatorAnswer = t.Object({
  id: calcId('The calculator id.'),
  status: Status,
  draft: Definition,
  published: t.Union([Definition, t.Null()], { description: 'What widgets load; null until the first publish.' }),
  publishedVersion: PublishedVersion,
  createdAt: at('When the calculator was created.', EXAMPLE.accountCreatedAt),
  updatedAt: at('When the draft was last saved or published.'),
});

export const CalculatorVersionList = t.Object({
  id: calcId('The calculator id.'),
  publishedVersion: PublishedVersion,
  versions: t.Array(
    t.Object({
      version: t.Integer({ minimum: 1, examples: [3] }),
      publishedAt: at('When this version was published.'),
    }),
    { description: 'The kept versions (the newest 20), newest first.' },
  ),
});

export const CalculatorDeleted = t.Object({
  id: calcId('The calculator id.'),
  deleted: t.Literal(true),
});

export const EvaluateAnswer = t.Object({
  outputs: t.Record(t.String(), t.Union([t.Number(), t.Null()]), {
    description: 'Each output by key: a number, or null when it is not a finite number ("—" in the widget).',
    examples: [{ total: 1482, days: 3 }],
  }),
});

export type SummaryJson = Static<typeof Summary>;
export type CalculatorJson = Static<typeof AccountCalculatorAnswer>;
export type VersionListJson = Static<typeof CalculatorVersionList>;
export type CreateBody = Static<typeof CreateCalculatorRequest>;
export type EvaluateBody = Static<typeof EvaluateRequest>;
