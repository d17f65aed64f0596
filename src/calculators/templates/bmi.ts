import { lengthPair, massPair } from './parts.ts';
import type { Template } from './template.ts';

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

export const bmi: Template = {
  category: 'health',
  notes:
    'WHO adult cut-offs; not valid for children and teens (who use percentiles), pregnancy or very muscular people. ' +
    'Band bounds: min inclusive, max exclusive.',
  definition: {
    id: 'bmi',
    title: 'Body Mass Index (BMI)',
    description: 'Calculates your body mass index from weight and height and shows the WHO adult weight category.',
    unitSystems: ['metric', 'imperial'],
    inputs: [weightKg, heightCm, weight, height],
    variables: [{ key: 'metres', formula: 'heightCm / 100' }],
    outputs: [
      {
        key: 'bmi',
        label: 'BMI',
        formula: 'weightKg / (metres * metres)',
        format: { style: 'number', decimals: 1, unit: 'kg/m²' },
        bands: [
          { upTo: 18.4, label: 'Underweight', tone: 'caution' },
          { upTo: 24.9, label: 'Normal weight', tone: 'good' },
          { upTo: 29.9, label: 'Overweight', tone: 'caution' },
          { upTo: 34.9, label: 'Obesity class I', tone: 'risk' },
          { upTo: 39.9, label: 'Obesity class II', tone: 'risk' },
          { label: 'Obesity class III', tone: 'risk' },
        ],
      },
    ],
  },
};
