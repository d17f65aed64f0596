import type { CalculatorDefinition, SelectField } from './definition.ts';
import { bmr, readBmrKcal } from './bmr.ts';
import { readOption } from './inputs.ts';

// The usual physical-activity multipliers applied to a BMR. Option values are names so
// select values stay strings; the factors stay in code.
const activityFactors: ReadonlyMap<string, number> = new Map([
  ['sedentary', 1.2],
  ['light', 1.375],
  ['moderate', 1.55],
  ['very', 1.725],
  ['extra', 1.9],
]);

const activity: SelectField = {
  key: 'activity',
  kind: 'select',
  label: 'Activity level',
  options: [
    { value: 'sedentary', label: 'Sedentary (little or no exercise)' },
    { value: 'light', label: 'Light (1–3 days/week)' },
    { value: 'moderate', label: 'Moderate (3–5 days/week)' },
    { value: 'very', label: 'Very active (6–7 days/week)' },
    { value: 'extra', label: 'Extra active (physical job + training)' },
  ],
  default: 'moderate',
};

// Common guidance: do not go below 1200 kcal/day without medical supervision.
const MIN_DIET_KCAL = 1200;

export const tdee: CalculatorDefinition = {
  id: 'tdee',
  category: 'health',
  title: 'Daily Calorie Needs (TDEE)',
  description:
    'Estimates the calories you need each day to keep your weight, lose it or gain it, from your BMR and activity level.',
  unitSystems: ['metric', 'imperial'],
  fields: [...bmr.fields, activity],
  results: [
    { key: 'tdee', label: 'Maintenance', unit: 'kcal/day', decimals: 0 },
    { key: 'lose', label: 'Mild weight loss', unit: 'kcal/day', decimals: 0 },
    { key: 'gain', label: 'Mild weight gain', unit: 'kcal/day', decimals: 0 },
  ],
  compute(values, system) {
    const bmrKcal = readBmrKcal(values, system);
    const level = readOption(values, activity);
    const factor = level === null ? undefined : activityFactors.get(level);
    if (bmrKcal === null || factor === undefined) return null;
    const maintenance = bmrKcal * factor;
    return { tdee: maintenance, lose: Math.max(maintenance - 500, MIN_DIET_KCAL), gain: maintenance + 300 };
  },
  notes:
    'BMR by Mifflin–St Jeor times an activity factor (1.2–1.9). Loss: −500 kcal, never below 1200; gain: +300 kcal.',
};
