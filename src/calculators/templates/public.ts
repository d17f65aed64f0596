/**
 * The catalogue's public shape of a template: exactly what GET /v1/calculators/:id served
 * before the catalogue became templates (fields, results with min/max bands, unit systems,
 * category, notes), so clients of that shape see no change; the definition itself is
 * served beside it, for copying and for rendering.
 */
import { textIn } from '../../definition/text.ts';
import type { PerSystem } from '../../definition/systems.ts';
import type { Static } from '@sinclair/typebox';
import type {
  CatalogueCalculator as CatalogueCalculatorSchema,
  PublicCalculator as PublicCalculatorSchema,
} from '../schema.ts';
import type { Band, Input, Output, Text } from '../../definition/types.ts';
import { DEFAULT_FORMAT } from '../../definition/view.ts';
import type { Template } from './template.ts';

// The shape has its home in ../schema.ts (a TypeBox schema); type-only, so no bundle imports TypeBox.
type Field = PublicCalculator['fields'][number];
type ResultDefinition = PublicCalculator['results'][number];
type ResultBand = NonNullable<ResultDefinition['bands']>[number];

/** A catalogue calculator as its public routes have always shown it. */
export type PublicCalculator = Static<typeof PublicCalculatorSchema>;

/** What the catalogue routes and a widget load answer serve: the public shape plus the definition. */
export type CatalogueCalculator = Static<typeof CatalogueCalculatorSchema>;

const english = (text: Text): string => textIn(text, 'en');

function perSystemText(value: PerSystem<Text>): PerSystem<string> {
  return typeof value === 'object' && 'metric' in value
    ? { metric: english(value.metric), imperial: english(value.imperial) }
    : english(value);
}

/** Present keys only: the public shape never holds a key whose value is undefined. */
function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function toField(input: Input): Field {
  const common = {
    key: input.key,
    label: english(input.label),
    help: input.help === undefined ? undefined : english(input.help),
  };
  if (input.kind === 'select') {
    return defined({
      ...common,
      kind: input.kind,
      options: input.options.map((option) => ({ value: option.value, label: english(option.label) })),
      default: input.default,
    });
  }
  if (input.kind === 'toggle') throw new Error(`template input ${input.key}: the catalogue shape has no toggles`);
  const { visibleIf } = input;
  return defined({
    ...common,
    kind: input.kind,
    unit: input.unit === undefined ? undefined : perSystemText(input.unit),
    min: input.min,
    max: input.max,
    default: input.default,
    step: input.step,
    aliasOf: input.aliasOf,
    visibleIf:
      visibleIf && typeof visibleIf.equals === 'string' ? { key: visibleIf.key, equals: visibleIf.equals } : undefined,
  });
}

/**
 * Bands as the catalogue had them, min inclusive and max exclusive on the displayed value:
 * `upTo: 24.9` with one decimal is `max: 25`, the next band's `min`.
 */
function toBands(bands: Band[], decimals: number): ResultBand[] {
  const above = (upTo: number) => Number((upTo + 10 ** -decimals).toFixed(decimals));
  return bands.map((band, i) => {
    const previous = bands[i - 1]?.upTo;
    return defined({
      min: previous === undefined ? undefined : above(previous),
      max: band.upTo === undefined ? undefined : above(band.upTo),
      label: english(band.label),
      tone: band.tone,
    });
  });
}

function toResult(output: Output): ResultDefinition {
  const { style, decimals, unit } = { ...DEFAULT_FORMAT, ...output.format };
  const { bandsBy } = output;
  return defined({
    key: output.key,
    label: english(output.label),
    unit: style === 'currency' ? 'currency' : style === 'percent' ? '%' : unit && perSystemText(unit),
    decimals,
    bands: output.bands && toBands(output.bands, decimals),
    bandsBy: bandsBy && {
      key: bandsBy.key,
      bands: Object.fromEntries(
        Object.entries(bandsBy.bands).map(([value, bands]) => [value, toBands(bands, decimals)]),
      ),
    },
  });
}

export function publicCalculator({ category, notes, definition }: Template): PublicCalculator {
  return defined({
    id: definition.id,
    category,
    title: english(definition.title),
    description: definition.description === undefined ? '' : english(definition.description),
    unitSystems: definition.unitSystems ?? ['metric'],
    fields: definition.inputs.map(toField),
    results: definition.outputs.map(toResult),
    notes,
  });
}

export function catalogueCalculator(template: Template): CatalogueCalculator {
  return { ...publicCalculator(template), definition: template.definition };
}
