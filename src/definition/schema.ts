/**
 * The definition of an owner's calculator as a TypeBox schema: the one description of its
 * shape, for the OpenAPI document and, through `Static`, for the TypeScript types
 * (types.ts). Server and CLI code only: the widget never imports TypeBox (validate.ts
 * checks the same shape by hand, and a test holds the two together).
 * docs/calculators.md explains every field.
 */
import { type TOptional, type TSchema, Type } from '@sinclair/typebox';
import { CALC_ID_PATTERN } from './id.ts';
import { MAX_FORMULA_LENGTH, NAME_PATTERN } from '../formula/limits.ts';
import { LIMITS } from './limits.ts';
import { LOCALES, MAX_TEXT_LENGTH } from './locales.ts';

const closed = { additionalProperties: false } as const;
const plain = Type.String({ minLength: 1, maxLength: MAX_TEXT_LENGTH });

// English is required; every other language of the widget may be given.
const translations = Object.fromEntries(LOCALES.filter((l) => l !== 'en').map((l) => [l, Type.Optional(plain)])) as {
  [language in Exclude<(typeof LOCALES)[number], 'en'>]: TOptional<typeof plain>;
};

export const Text = Type.Union([plain, Type.Object({ en: plain, ...translations }, closed)], {
  description: `Plain text (never HTML), at most ${MAX_TEXT_LENGTH} characters: one string, or one per language with \`en\` required.`,
  examples: ['Weight', { en: 'Weight', de: 'Gewicht' }],
});

const Key = Type.String({
  pattern: NAME_PATTERN.source,
  description: 'A letter, then up to 39 letters, digits or `_`; unique across inputs, variables and outputs.',
});
const Formula = Type.String({
  minLength: 1,
  maxLength: MAX_FORMULA_LENGTH,
  examples: ['weightKg / (heightCm / 100) ^ 2'],
});

/** The same value in every unit system, or one value for each. */
const perSystem = <T extends TSchema>(value: T) =>
  Type.Union([value, Type.Object({ metric: value, imperial: value }, closed)]);

export const UnitSystem = Type.Union([Type.Literal('metric'), Type.Literal('imperial')]);

const common = {
  key: Key,
  label: Text,
  help: Type.Optional(Text),
  visibleIf: Type.Optional(
    Type.Object(
      { key: Key, equals: Type.Union([Type.String(), Type.Boolean()]) },
      { ...closed, description: 'Shown (and read) only while an earlier select or toggle input has this value.' },
    ),
  ),
};

const NumberInput = Type.Object(
  {
    kind: Type.Literal('number'),
    ...common,
    min: perSystem(Type.Number()),
    max: perSystem(Type.Number()),
    default: perSystem(Type.Number()),
    step: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
    unit: Type.Optional(perSystem(Text)),
    aliasOf: Type.Optional(
      Type.String({
        pattern: NAME_PATTERN.source,
        description:
          'Makes this input the display form of another number input (kg/lb, cm/in): shown in the displayed unit system; formulas use the other key.',
      }),
    ),
  },
  closed,
);

const SelectInput = Type.Object(
  {
    kind: Type.Literal('select'),
    ...common,
    options: Type.Array(
      Type.Object(
        {
          value: Type.String({ minLength: 1, maxLength: LIMITS.optionValue }),
          label: Text,
          number: Type.Optional(Type.Number({ description: "The option's value in formulas." })),
        },
        closed,
      ),
      { minItems: 1, maxItems: LIMITS.options },
    ),
    default: Type.String(),
  },
  closed,
);

const ToggleInput = Type.Object({ kind: Type.Literal('toggle'), ...common, default: Type.Boolean() }, closed);

export const Input = Type.Union([NumberInput, SelectInput, ToggleInput]);

const Band = Type.Object(
  {
    upTo: Type.Optional(
      Type.Number({ description: 'Applies when the displayed value is ≤ this; the last band may leave it out.' }),
    ),
    label: Text,
    tone: Type.Optional(Type.Union([Type.Literal('good'), Type.Literal('caution'), Type.Literal('risk')])),
  },
  closed,
);
const Bands = Type.Array(Band, { minItems: 1, maxItems: LIMITS.bands });

export const Output = Type.Object(
  {
    key: Key,
    label: Text,
    formula: Formula,
    format: Type.Optional(
      Type.Object(
        {
          style: Type.Union([Type.Literal('number'), Type.Literal('currency'), Type.Literal('percent')]),
          decimals: Type.Integer({ minimum: 0, maximum: 6 }),
          unit: Type.Optional(perSystem(Text)),
        },
        closed,
      ),
    ),
    bands: Type.Optional(Bands),
    bandsBy: Type.Optional(
      Type.Object(
        { key: Key, bands: Type.Record(Type.String(), Bands) },
        { ...closed, description: "Bands that depend on a select input's value, one list per option value." },
      ),
    ),
    primary: Type.Optional(Type.Boolean()),
  },
  closed,
);

export const Definition = Type.Object(
  {
    id: Type.String({ pattern: CALC_ID_PATTERN }),
    title: Text,
    description: Type.Optional(Text),
    inputs: Type.Array(Input, { minItems: 1, maxItems: LIMITS.inputs }),
    variables: Type.Optional(
      Type.Array(Type.Object({ key: Key, formula: Formula }, closed), { maxItems: LIMITS.variables }),
    ),
    outputs: Type.Array(Output, { minItems: 1, maxItems: LIMITS.outputs }),
    tables: Type.Optional(
      Type.Record(
        Type.String({ pattern: NAME_PATTERN.source }),
        Type.Array(Type.Tuple([Type.Number(), Type.Number()]), { minItems: 1, maxItems: LIMITS.tableRows }),
        {
          ...closed,
          maxProperties: LIMITS.tables,
          description: 'Step tables for `lookup(x, name)`: [threshold, value] rows, thresholds rising.',
        },
      ),
    ),
    unitSystems: Type.Optional(Type.Array(UnitSystem, { minItems: 1, maxItems: 2, uniqueItems: true })),
  },
  { ...closed, description: 'An owner-defined calculator (docs/calculators.md).' },
);

/** One problem found in a definition: where (`outputs[1].formula`), what, and for a formula, at which character. */
export const Problem = Type.Object({
  path: Type.String({ description: 'Where, as a path into the definition', examples: ['outputs[1].formula'] }),
  message: Type.String({ examples: ['Unknown name "finsh".'] }),
  position: Type.Optional(
    Type.Integer({ minimum: 0, description: 'For a formula: the character where the problem is', examples: [10] }),
  ),
});
