import type { CalculatorDefinition } from './definition.ts';
import { lengthPair, massPair } from './fields.ts';
import { readCanonical } from './inputs.ts';

// Imperial alias ranges are the canonical ranges converted and rounded inwards.
const [weightKg, weight] = massPair(
  'weight',
  'Weight',
  { min: 2, max: 650, default: 70 },
  { min: 4.41, max: 1433, default: 154 },
);
const [heightCm, height] = lengthPair(
  'height',
  'Height',
  { min: 40, max: 272, default: 175 },
  { min: 15.75, max: 107, default: 69 },
);

export const bmi: CalculatorDefinition = {
  id: 'bmi',
  category: 'health',
  title: 'Body Mass Index (BMI)',
  description: 'Calculates your body mass index from weight and height and shows the WHO adult weight category.',
  unitSystems: ['metric', 'imperial'],
  fields: [weightKg, heightCm, weight, height],
  results: [
    {
      key: 'bmi',
      label: 'BMI',
      unit: 'kg/m²',
      decimals: 1,
      bands: [
        { max: 18.5, label: 'Underweight', tone: 'caution' },
        { min: 18.5, max: 25, label: 'Normal weight', tone: 'good' },
        { min: 25, max: 30, label: 'Overweight', tone: 'caution' },
        { min: 30, max: 35, label: 'Obesity class I', tone: 'risk' },
        { min: 35, max: 40, label: 'Obesity class II', tone: 'risk' },
        { min: 40, label: 'Obesity class III', tone: 'risk' },
      ],
    },
  ],
  compute(values, system) {
    const kg = readCanonical(values, weightKg, weight, system);
    const cm = readCanonical(values, heightCm, height, system);
    if (kg === null || cm === null) return null;
    const metres = cm / 100;
    return { bmi: kg / (metres * metres) };
  },
  notes:
    'WHO adult cut-offs; not valid for children and teens (who use percentiles), pregnancy or very muscular people. ' +
    'Band bounds: min inclusive, max exclusive.',
};
