import type { CalculatorDefinition, FieldValues, UnitSystem } from './definition.ts';
import { ageField, lengthPair, massPair, sex } from './fields.ts';
import { readCanonical, readNumber, readOption } from './inputs.ts';

// Same key scheme as bmi (canonical kg/cm keys plus display aliases), so a pre-fill
// that works for bmi works here too.
const [weightKg, weight] = massPair(
  'weight',
  'Weight',
  { min: 20, max: 650, default: 70 },
  { min: 44.1, max: 1433, default: 154 },
);
const [heightCm, height] = lengthPair(
  'height',
  'Height',
  { min: 100, max: 272, default: 175 },
  { min: 39.4, max: 107, default: 69 },
);
const age = ageField({ min: 15, max: 100, default: 30 });

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
