import { ageInput, lengthPair, massPair, sex } from './parts.ts';
import type { Template } from './template.ts';

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

/**
 * Mifflin–St Jeor resting energy expenditure in kcal/day (Mifflin et al., Am J Clin Nutr
 * 1990): 10·kg + 6.25·cm − 5·years + (5 male, −161 female). tdee builds on it.
 */
export const mifflinStJeor = '10 * weightKg + 6.25 * heightCm - 5 * age + (sex == 1 ? 5 : -161)';

export const bmr: Template = {
  category: 'health',
  notes:
    'Weight and height follow the bmi key scheme: weightKg/heightCm in kg/cm, weight/height in the displayed units.',
  definition: {
    id: 'bmr',
    title: 'Basal Metabolic Rate (Mifflin–St Jeor)',
    description: 'Estimates the calories your body burns at rest each day with the Mifflin–St Jeor equation.',
    unitSystems: ['metric', 'imperial'],
    inputs: [weightKg, heightCm, weight, height, ageInput({ min: 15, max: 100, default: 30 }), sex],
    outputs: [
      { key: 'bmr', label: 'BMR', formula: mifflinStJeor, format: { style: 'number', decimals: 0, unit: 'kcal/day' } },
    ],
  },
};
