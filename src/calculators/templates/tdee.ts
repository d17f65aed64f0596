import type { SelectInput } from '../../definition/types.ts';
import { bmr, mifflinStJeor } from './bmr.ts';
import type { Template } from './template.ts';

// The usual physical-activity multipliers applied to a BMR, as the options' numbers.
const activity: SelectInput = {
  key: 'activity',
  kind: 'select',
  label: 'Activity level',
  options: [
    { value: 'sedentary', label: 'Sedentary (little or no exercise)', number: 1.2 },
    { value: 'light', label: 'Light (1–3 days/week)', number: 1.375 },
    { value: 'moderate', label: 'Moderate (3–5 days/week)', number: 1.55 },
    { value: 'very', label: 'Very active (6–7 days/week)', number: 1.725 },
    { value: 'extra', label: 'Extra active (physical job + training)', number: 1.9 },
  ],
  default: 'moderate',
};

const perDay = { style: 'number', decimals: 0, unit: 'kcal/day' } as const;

export const tdee: Template = {
  category: 'health',
  notes:
    'BMR by Mifflin–St Jeor times an activity factor (1.2–1.9). Loss: −500 kcal, never below 1200; gain: +300 kcal.',
  definition: {
    id: 'tdee',
    title: 'Daily Calorie Needs (TDEE)',
    description:
      'Estimates the calories you need each day to keep your weight, lose it or gain it, from your BMR and activity level.',
    unitSystems: ['metric', 'imperial'],
    inputs: [...bmr.definition.inputs, activity],
    variables: [{ key: 'maintenance', formula: `(${mifflinStJeor}) * activity` }],
    outputs: [
      { key: 'tdee', label: 'Maintenance', formula: 'maintenance', format: perDay },
      // Common guidance: not below 1200 kcal/day without medical supervision.
      { key: 'lose', label: 'Mild weight loss', formula: 'max(maintenance - 500, 1200)', format: perDay },
      { key: 'gain', label: 'Mild weight gain', formula: 'maintenance + 300', format: perDay },
    ],
  },
};
