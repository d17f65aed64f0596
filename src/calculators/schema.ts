/**
 * The catalogue's public shape of a calculator as a TypeBox schema: the one description of
 * what GET /v1/calculators and a widget load serve (templates/public.ts takes its types
 * from here, type-only, so browser bundles never import TypeBox). Server and CLI code only.
 */
import { type TSchema, Type } from '@sinclair/typebox';
import { Definition, UnitSystem } from '../definition/schema.ts';

const perSystem = <T extends TSchema>(value: T, description?: string) =>
  Type.Union([value, Type.Object({ metric: value, imperial: value })], description ? { description } : {});

const NumberField = Type.Object({
  key: Type.String(),
  kind: Type.Literal('number'),
  label: Type.String(),
  unit: Type.Optional(perSystem(Type.String())),
  min: perSystem(Type.Number()),
  max: perSystem(Type.Number()),
  default: perSystem(Type.Number()),
  step: Type.Optional(Type.Number()),
  help: Type.Optional(Type.String()),
  aliasOf: Type.Optional(Type.String({ description: 'A display alias: the key of the number input it stands for.' })),
  visibleIf: Type.Optional(Type.Object({ key: Type.String(), equals: Type.String() })),
});

const SelectField = Type.Object({
  key: Type.String(),
  kind: Type.Literal('select'),
  label: Type.String(),
  options: Type.Array(Type.Object({ value: Type.String(), label: Type.String() })),
  default: Type.String(),
  help: Type.Optional(Type.String()),
});

const ResultBand = Type.Object(
  {
    min: Type.Optional(Type.Number()),
    max: Type.Optional(Type.Number()),
    label: Type.String(),
    tone: Type.Optional(Type.Union([Type.Literal('good'), Type.Literal('caution'), Type.Literal('risk')])),
  },
  { description: 'min inclusive, max exclusive, on the displayed value.' },
);

const ResultDefinition = Type.Object({
  key: Type.String(),
  label: Type.String(),
  unit: Type.Optional(
    perSystem(Type.String(), "`currency` for amounts, `%` for percentages, else the output's own unit."),
  ),
  decimals: Type.Integer({ minimum: 0 }),
  bands: Type.Optional(Type.Array(ResultBand)),
  bandsBy: Type.Optional(
    Type.Object(
      { key: Type.String(), bands: Type.Record(Type.String(), Type.Array(ResultBand)) },
      { description: 'Bands by the value of a select field, instead of `bands`.' },
    ),
  ),
});

/** What the catalogue has always shown of a calculator, in English. */
export const PublicCalculator = Type.Object({
  id: Type.String(),
  category: Type.String(),
  title: Type.String(),
  description: Type.String(),
  unitSystems: Type.Array(UnitSystem),
  fields: Type.Array(Type.Union([NumberField, SelectField])),
  results: Type.Array(ResultDefinition),
  notes: Type.Optional(Type.String()),
});

/** The public shape plus the definition (docs/calculators.md), which a widget renders and an owner can copy. */
export const CatalogueCalculator = Type.Object({ ...PublicCalculator.properties, definition: Definition });
