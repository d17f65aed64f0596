import type { CalculatorDefinition, NumberField } from './definition.ts';
import { ageField } from './fields.ts';
import { readNumber } from './inputs.ts';

const age = ageField({ min: 10, max: 100, default: 35 });

const restingHr: NumberField = {
  key: 'restingHr',
  kind: 'number',
  label: 'Resting heart rate',
  unit: 'bpm',
  min: 30,
  max: 120,
  default: 65,
  step: 1,
};

const intensityLow: NumberField = {
  key: 'intensityLow',
  kind: 'number',
  label: 'Lower intensity',
  unit: '%',
  min: 30,
  max: 100,
  default: 50,
  help: 'Share of the heart-rate reserve at the bottom of the zone.',
};

const intensityHigh: NumberField = {
  key: 'intensityHigh',
  kind: 'number',
  label: 'Upper intensity',
  unit: '%',
  min: 30,
  max: 100,
  default: 85,
  help: 'Share of the heart-rate reserve at the top of the zone; not below the lower intensity.',
};

/** Karvonen: resting rate plus a share of the heart-rate reserve (max − resting). */
function karvonenBpm(maxHr: number, restingBpm: number, intensityPercent: number): number {
  return restingBpm + ((maxHr - restingBpm) * intensityPercent) / 100;
}

export const targetHeartRate: CalculatorDefinition = {
  id: 'target-heart-rate',
  category: 'health',
  title: 'Target Heart Rate (Karvonen)',
  description: 'Finds your training heart-rate zone from your age and resting heart rate with the Karvonen method.',
  unitSystems: ['metric'],
  fields: [age, restingHr, intensityLow, intensityHigh],
  results: [
    { key: 'hrMax', label: 'Estimated max heart rate', unit: 'bpm', decimals: 0 },
    { key: 'low', label: 'Target zone from', unit: 'bpm', decimals: 0 },
    { key: 'high', label: 'Target zone to', unit: 'bpm', decimals: 0 },
  ],
  compute(values, system) {
    const years = readNumber(values, age, system);
    const resting = readNumber(values, restingHr, system);
    const low = readNumber(values, intensityLow, system);
    const high = readNumber(values, intensityHigh, system);
    if (years === null || resting === null || low === null || high === null) return null;
    const hrMax = 220 - years;
    // A zone needs a positive reserve and its bounds in order.
    if (resting >= hrMax || low > high) return null;
    return { hrMax, low: karvonenBpm(hrMax, resting, low), high: karvonenBpm(hrMax, resting, high) };
  },
  notes: 'Maximum heart rate estimated as 220 − age (Fox); individual maxima vary by ±10–12 bpm.',
};
