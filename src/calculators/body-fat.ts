import type { CalculatorDefinition } from './definition.ts';
import { lengthPair, sex } from './fields.ts';
import { readCanonical, readOption } from './inputs.ts';

const femaleOnly = { key: 'sex', equals: 'female' };

// Imperial ranges are the centimetre ranges converted and rounded inwards.
const [heightCmField, heightField] = lengthPair(
  'height',
  'Height',
  { min: 100, max: 272, default: 175 },
  { min: 39.4, max: 107, default: 69 },
);
const [neckCmField, neckField] = lengthPair(
  'neck',
  'Neck circumference',
  { min: 20, max: 80, default: 38 },
  { min: 7.9, max: 31.4, default: 15 },
);
const [waistCmField, waistField] = lengthPair(
  'waist',
  'Waist circumference',
  { min: 40, max: 200, default: 85 },
  { min: 15.8, max: 78.7, default: 33.5 },
);
const [hipCmField, hipField] = lengthPair(
  'hip',
  'Hip circumference',
  { min: 50, max: 200, default: 95 },
  { min: 19.7, max: 78.7, default: 37.5 },
  femaleOnly,
);

export interface NavyMeasurements {
  isMale: boolean;
  heightCm: number;
  neckCm: number;
  waistCm: number;
  /** Ignored for men. */
  hipCm: number;
}

/**
 * U.S. Navy circumference method, metric form (Hodgdon & Beckett, NHRC report 84-11,
 * 1984). All lengths in cm. Meaningless (NaN or negative) unless waist (+ hip) exceeds neck.
 */
export function navyBodyFatPercent(m: NavyMeasurements): number {
  const density = m.isMale
    ? 1.0324 - 0.19077 * Math.log10(m.waistCm - m.neckCm) + 0.15456 * Math.log10(m.heightCm)
    : 1.29579 - 0.35004 * Math.log10(m.waistCm + m.hipCm - m.neckCm) + 0.221 * Math.log10(m.heightCm);
  // Siri equation: body fat % from body density.
  return 495 / density - 450;
}

export const bodyFat: CalculatorDefinition = {
  id: 'body-fat',
  category: 'health',
  title: 'Body Fat % (U.S. Navy method)',
  description: 'Estimates your body fat percentage from height and neck, waist and (for women) hip circumferences.',
  unitSystems: ['metric', 'imperial'],
  fields: [sex, heightCmField, neckCmField, waistCmField, hipCmField, heightField, neckField, waistField, hipField],
  results: [
    {
      key: 'bodyFat',
      label: 'Body fat',
      unit: '%',
      decimals: 1,
      bandsBy: {
        key: 'sex',
        bands: {
          male: [
            { max: 6, label: 'Essential', tone: 'caution' },
            { min: 6, max: 14, label: 'Athletes', tone: 'good' },
            { min: 14, max: 18, label: 'Fitness', tone: 'good' },
            { min: 18, max: 25, label: 'Average' },
            { min: 25, label: 'Obese', tone: 'risk' },
          ],
          female: [
            { max: 14, label: 'Essential', tone: 'caution' },
            { min: 14, max: 21, label: 'Athletes', tone: 'good' },
            { min: 21, max: 25, label: 'Fitness', tone: 'good' },
            { min: 25, max: 32, label: 'Average' },
            { min: 32, label: 'Obese', tone: 'risk' },
          ],
        },
      },
    },
  ],
  compute(values, system) {
    const sexValue = readOption(values, sex);
    const heightCm = readCanonical(values, heightCmField, heightField, system);
    const neckCm = readCanonical(values, neckCmField, neckField, system);
    const waistCm = readCanonical(values, waistCmField, waistField, system);
    if (sexValue === null || heightCm === null || neckCm === null || waistCm === null) return null;
    const isMale = sexValue === 'male';
    // Hip only enters the women's equation.
    const hipCm = isMale ? 0 : readCanonical(values, hipCmField, hipField, system);
    if (hipCm === null) return null;
    const percent = navyBodyFatPercent({ isMale, heightCm, neckCm, waistCm, hipCm });
    // Implausible measurements (e.g. waist not larger than neck) give NaN or a
    // percentage outside 0–100: report them as invalid input, not as a result.
    if (!(percent > 0 && percent < 100)) return null;
    return { bodyFat: percent };
  },
  notes:
    'Categories from the American Council on Exercise. Waist must exceed neck (men), waist + hip must exceed neck (women). ' +
    'Lengths follow the bmi key scheme: *Cm keys in cm, the short keys in the displayed units.',
};
