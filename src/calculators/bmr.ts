import type { CalculatorDefinition, FieldValues, NumberField, SelectField, UnitSystem } from './definition.ts';
import { readCanonical, readNumber, readOption } from './inputs.ts';

// Same key scheme as bmi (canonical kg/cm keys plus display aliases), so a pre-fill
// that works for bmi works here too.
const weightKg: NumberField = {
  key: 'weightKg',
  kind: 'number',
  label: 'Weight',
  unit: 'kg',
  min: 20,
  max: 650,
  default: 70,
  step: 0.1,
  help: 'Weight in kilograms, whatever unit system is displayed. Takes precedence over `weight`.',
};

const heightCm: NumberField = {
  key: 'heightCm',
  kind: 'number',
  label: 'Height',
  unit: 'cm',
  min: 100,
  max: 272,
  default: 175,
  step: 0.1,
  help: 'Height in centimetres, whatever unit system is displayed. Takes precedence over `height`.',
};

const weight: NumberField = {
  key: 'weight',
  kind: 'number',
  label: 'Weight',
  unit: { metric: 'kg', imperial: 'lb' },
  min: { metric: 20, imperial: 44.1 },
  max: { metric: 650, imperial: 1433 },
  default: { metric: 70, imperial: 154 },
  step: 0.1,
  help: 'Weight in the displayed unit system: kilograms (metric) or pounds (imperial). Used when `weightKg` is absent.',
  aliasOf: 'weightKg',
};

const height: NumberField = {
  key: 'height',
  kind: 'number',
  label: 'Height',
  unit: { metric: 'cm', imperial: 'in' },
  min: { metric: 100, imperial: 39.4 },
  max: { metric: 272, imperial: 107 },
  default: { metric: 175, imperial: 69 },
  step: 0.1,
  help: 'Height in the displayed unit system: centimetres (metric) or inches (imperial). Used when `heightCm` is absent.',
  aliasOf: 'heightCm',
};

const age: NumberField = {
  key: 'age',
  kind: 'number',
  label: 'Age',
  unit: 'years',
  min: 15,
  max: 100,
  default: 30,
  step: 1,
};

const sex: SelectField = {
  key: 'sex',
  kind: 'select',
  label: 'Sex',
  options: [
    { value: 'male', label: 'Male' },
    { value: 'female', label: 'Female' },
  ],
  default: 'male',
};

/**
 * Mifflin–St Jeor resting energy expenditure in kcal/day
 * (Mifflin et al., Am J Clin Nutr 1990): 10·kg + 6.25·cm − 5·years + (5 male, −161 female).
 */
export function mifflinStJeorKcal(kg: number, cm: number, years: number, isMale: boolean): number {
  return 10 * kg + 6.25 * cm - 5 * years + (isMale ? 5 : -161);
}

/** Reads the BMR fields (shared with tdee) and returns the BMR in kcal/day, or null. */
export function readBmrKcal(values: FieldValues, system: UnitSystem): number | null {
  const kg = readCanonical(values, weightKg, weight, system);
  const cm = readCanonical(values, heightCm, height, system);
  const years = readNumber(values, age, system);
  const sexValue = readOption(values, sex);
  if (kg === null || cm === null || years === null || sexValue === null) return null;
  return mifflinStJeorKcal(kg, cm, years, sexValue === 'male');
}

export const bmr: CalculatorDefinition = {
  id: 'bmr',
  category: 'health',
  title: 'Basal Metabolic Rate (Mifflin–St Jeor)',
  description: 'Estimates the calories your body burns at rest each day with the Mifflin–St Jeor equation.',
  unitSystems: ['metric', 'imperial'],
  fields: [weightKg, heightCm, weight, height, age, sex],
  results: [{ key: 'bmr', label: 'BMR', unit: 'kcal/day', decimals: 0 }],
  compute(values, system) {
    const kcal = readBmrKcal(values, system);
    return kcal === null ? null : { bmr: kcal };
  },
  notes:
    'Weight and height follow the bmi key scheme: weightKg/heightCm in kg/cm, weight/height in the displayed units.',
};
