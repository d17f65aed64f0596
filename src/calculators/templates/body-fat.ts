import { lengthPair, sex } from './parts.ts';
import type { Template } from './template.ts';

const femaleOnly = { key: 'sex', equals: 'female' };

// Imperial ranges are the centimetre ranges converted and rounded inwards.
const [heightCm, height] = lengthPair(
  'height',
  'Height',
  { min: 100, max: 272, default: 175 },
  { min: 39.4, max: 107, default: 69 },
);
const [neckCm, neck] = lengthPair(
  'neck',
  'Neck circumference',
  { min: 20, max: 80, default: 38 },
  { min: 7.9, max: 31.4, default: 15 },
);
const [waistCm, waist] = lengthPair(
  'waist',
  'Waist circumference',
  { min: 40, max: 200, default: 85 },
  { min: 15.8, max: 78.7, default: 33.5 },
);
const [hipCm, hip] = lengthPair(
  'hip',
  'Hip circumference',
  { min: 50, max: 200, default: 95 },
  { min: 19.7, max: 78.7, default: 37.5 },
  femaleOnly,
);

export const bodyFat: Template = {
  category: 'health',
  notes:
    'Categories from the American Council on Exercise. Waist must exceed neck (men), waist + hip must exceed neck (women). ' +
    'Lengths follow the bmi key scheme: *Cm keys in cm, the short keys in the displayed units.',
  definition: {
    id: 'body-fat',
    title: 'Body Fat % (U.S. Navy method)',
    description: 'Estimates your body fat percentage from height and neck, waist and (for women) hip circumferences.',
    unitSystems: ['metric', 'imperial'],
    inputs: [sex, heightCm, neckCm, waistCm, hipCm, height, neck, waist, hip],
    variables: [
      // U.S. Navy circumference method, metric form (Hodgdon & Beckett, NHRC report 84-11,
      // 1984): body density from lengths in cm. Hip is read for women only (hidden for men).
      {
        key: 'density',
        formula:
          'sex == 1 ? 1.0324 - 0.19077 * log10(waistCm - neckCm) + 0.15456 * log10(heightCm) ' +
          ': 1.29579 - 0.35004 * log10(waistCm + hipCm - neckCm) + 0.221 * log10(heightCm)',
      },
      // Siri equation: body fat % from body density.
      { key: 'percent', formula: '495 / density - 450' },
    ],
    outputs: [
      {
        key: 'bodyFat',
        label: 'Body fat',
        // Implausible measurements (waist not above neck, say) give no number or one outside 0–100: no result.
        formula: 'percent > 0 && percent < 100 ? percent : 0 / 0',
        format: { style: 'percent', decimals: 1 },
        bandsBy: {
          key: 'sex',
          bands: {
            male: [
              { upTo: 5.9, label: 'Essential', tone: 'caution' },
              { upTo: 13.9, label: 'Athletes', tone: 'good' },
              { upTo: 17.9, label: 'Fitness', tone: 'good' },
              { upTo: 24.9, label: 'Average' },
              { label: 'Obese', tone: 'risk' },
            ],
            female: [
              { upTo: 13.9, label: 'Essential', tone: 'caution' },
              { upTo: 20.9, label: 'Athletes', tone: 'good' },
              { upTo: 24.9, label: 'Fitness', tone: 'good' },
              { upTo: 31.9, label: 'Average' },
              { label: 'Obese', tone: 'risk' },
            ],
          },
        },
      },
    ],
  },
};
