import type { CalculatorDefinition, NumberField } from './definition.ts';
import { readCanonical } from './inputs.ts';

// weightKg/heightCm always mean kg/cm (docs/embedding.md, "bmi's four keys"); weight/height are in the displayed
// unit system. Imperial alias ranges are the canonical ranges converted and rounded
// inwards, so every accepted alias value is also a valid canonical value.
const weightKg: NumberField = {
  key: 'weightKg',
  kind: 'number',
  label: 'Weight',
  unit: 'kg',
  min: 2,
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
  min: 40,
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
  min: { metric: 2, imperial: 4.41 },
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
  min: { metric: 40, imperial: 15.75 },
  max: { metric: 272, imperial: 107 },
  default: { metric: 175, imperial: 69 },
  step: 0.1,
  help: 'Height in the displayed unit system: centimetres (metric) or inches (imperial). Used when `heightCm` is absent.',
  aliasOf: 'heightCm',
};

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
