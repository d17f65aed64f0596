/**
 * Inputs that several templates ask for, the kinds of input they repeat (amounts of
 * money, loan rates and terms, measured quantities under two keys) and their shared
 * formats. Each template keeps its own ranges and labels; the shape of an input is
 * written once here.
 */
import type { NumberInput, SelectInput } from '../../definition/types.ts';

/** An amount of money as results show it: in the widget's currency, to the cent. */
export const money = { style: 'currency', decimals: 2 } as const;

/** An input's range and default, the part that differs between templates. */
interface Range {
  min: number;
  max: number;
  default: number;
}

/** Sex, for the equations and bands that differ by it; in formulas male is 1, female 0. */
export const sex: SelectInput = {
  key: 'sex',
  kind: 'select',
  label: 'Sex',
  options: [
    { value: 'male', label: 'Male', number: 1 },
    { value: 'female', label: 'Female', number: 0 },
  ],
  default: 'male',
};

/** Age in whole years. */
export function ageInput(range: Range): NumberInput {
  return { key: 'age', kind: 'number', label: 'Age', unit: 'years', ...range, step: 1 };
}

/** An amount in the account's currency ('currency' is shown as its symbol). */
export function moneyInput(key: string, label: string, range: Range & { help?: string }): NumberInput {
  return { key, kind: 'number', label, unit: 'currency', ...range };
}

/** A nominal annual interest rate in percent, as loans quote it. */
export function loanRateInput(range: Range): NumberInput {
  return { key: 'annualRate', kind: 'number', label: 'Interest rate (annual)', unit: '%', ...range, step: 0.01 };
}

/** A loan's term in whole years. */
export function termYearsInput(range: Range): NumberInput {
  return { key: 'termYears', kind: 'number', label: 'Term', unit: 'years', ...range, step: 1 };
}

interface Quantity {
  /** Suffix of the canonical key: `weight` + `Kg`. */
  suffix: string;
  metric: { unit: string; name: string };
  imperial: { unit: string; name: string };
}

const mass: Quantity = {
  suffix: 'Kg',
  metric: { unit: 'kg', name: 'kilograms' },
  imperial: { unit: 'lb', name: 'pounds' },
};

const length: Quantity = {
  suffix: 'Cm',
  metric: { unit: 'cm', name: 'centimetres' },
  imperial: { unit: 'in', name: 'inches' },
};

/**
 * A measured quantity under two keys (docs/embedding.md, "bmi's four keys"): the
 * canonical one (`weightKg`), always in kg or cm, which formulas use, and its display
 * alias (`weight`) in the displayed unit system. The imperial range is the metric one
 * converted and rounded inwards, so every accepted alias value is a valid canonical value.
 */
function measuredPair(
  quantity: Quantity,
  key: string,
  label: string,
  metric: Range,
  imperial: Range,
  visibleIf?: NumberInput['visibleIf'],
): [canonical: NumberInput, alias: NumberInput] {
  const shown = visibleIf ? { visibleIf } : {};
  const canonicalKey = `${key}${quantity.suffix}`;
  const canonical: NumberInput = {
    key: canonicalKey,
    kind: 'number',
    label,
    unit: quantity.metric.unit,
    ...metric,
    step: 0.1,
    help: `${label} in ${quantity.metric.name}, whatever unit system is displayed. Takes precedence over \`${key}\`.`,
    ...shown,
  };
  const alias: NumberInput = {
    key,
    kind: 'number',
    label,
    unit: { metric: quantity.metric.unit, imperial: quantity.imperial.unit },
    min: { metric: metric.min, imperial: imperial.min },
    max: { metric: metric.max, imperial: imperial.max },
    default: { metric: metric.default, imperial: imperial.default },
    step: 0.1,
    help: `${label} in the displayed unit system: ${quantity.metric.name} (metric) or ${quantity.imperial.name} (imperial). Used when \`${canonicalKey}\` is absent.`,
    aliasOf: canonicalKey,
    ...shown,
  };
  return [canonical, alias];
}

/** `<key>Kg` in kilograms plus `<key>` in kg or lb. */
export function massPair(key: string, label: string, kg: Range, lb: Range): [NumberInput, NumberInput] {
  return measuredPair(mass, key, label, kg, lb);
}

/** `<key>Cm` in centimetres plus `<key>` in cm or in. */
export function lengthPair(
  key: string,
  label: string,
  cm: Range,
  inches: Range,
  visibleIf?: NumberInput['visibleIf'],
): [NumberInput, NumberInput] {
  return measuredPair(length, key, label, cm, inches, visibleIf);
}
