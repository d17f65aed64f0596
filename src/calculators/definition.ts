/**
 * The shape of a calculator, shared by the server (catalogue routes, webhook merge)
 * and the widget (rendering and computation). Definitions are plain data plus a
 * plain `compute` function: formulas are code, never evaluated strings.
 */

export type UnitSystem = 'metric' | 'imperial';

/** A value that is the same in every unit system, or one value per system. */
export type PerSystem<T> = T | { metric: T; imperial: T };

export interface NumberField {
  key: string;
  kind: 'number';
  label: string;
  unit?: PerSystem<string>;
  min: PerSystem<number>;
  max: PerSystem<number>;
  default: PerSystem<number>;
  step?: number;
  /** Explains the field; rendered as help text and shown in the public definition. */
  help?: string;
  /**
   * For a display-dependent alias (bmi `weight`, `height`): the canonical key it
   * stands for. The widget shows the alias and converts; the canonical key wins
   * when both arrive.
   */
  aliasOf?: string;
  /** Hidden unless another field has this value (body-fat `hipCm` for women). */
  visibleIf?: { key: string; equals: string };
}

export interface SelectField {
  key: string;
  kind: 'select';
  label: string;
  options: { value: string; label: string }[];
  default: string;
  help?: string;
}

export type Field = NumberField | SelectField;

/**
 * What a band means for the person, which the widget shows as colour next to the band's
 * text: `good` (the healthy range), `caution` (outside it, worth attention), `risk`
 * (a health risk); no tone is neutral.
 */
type BandTone = 'good' | 'caution' | 'risk';

export interface ResultBand {
  min?: number;
  max?: number;
  label: string;
  tone?: BandTone;
}

export interface ResultDefinition {
  key: string;
  label: string;
  unit?: PerSystem<string>;
  decimals: number;
  /** min inclusive, max exclusive */
  bands?: ResultBand[];
  /**
   * Bands that depend on a select field's value (body-fat: by sex), used instead of
   * `bands`: `bands[values[key]]`. A reader that does not know it shows no band.
   */
  bandsBy?: { key: string; bands: Record<string, ResultBand[]> };
}

export type FieldValues = Record<string, number | string>;

export interface CalculatorDefinition {
  id: string;
  category: string;
  title: string;
  description: string;
  unitSystems: UnitSystem[];
  fields: Field[];
  results: ResultDefinition[];
  /**
   * Computes results from the values of the fields shown in `unitSystem` (numbers
   * already parsed). Returns null when an input is missing or out of range.
   */
  compute(values: FieldValues, unitSystem: UnitSystem): Record<string, number> | null;
  notes?: string;
}

/** The JSON form served by the catalogue routes: everything but the code. */
export type PublicCalculator = Omit<CalculatorDefinition, 'compute'>;

export function perSystem<T>(value: PerSystem<T>, system: UnitSystem): T {
  if (typeof value === 'object' && value !== null && 'metric' in value && 'imperial' in value) {
    return value[system];
  }
  return value as T;
}

export function toPublic(calculator: CalculatorDefinition): PublicCalculator {
  const { compute: _compute, ...rest } = calculator;
  return rest;
}
