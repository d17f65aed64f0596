import { ageInput } from './parts.ts';
import type { Template } from './template.ts';

// Karvonen: resting rate plus a share of the heart-rate reserve (max − resting).
const zoneBound = (intensity: string) => `valid ? restingHr + (maxHr - restingHr) * ${intensity} / 100 : 0 / 0`;
const bpm = { style: 'number', decimals: 0, unit: 'bpm' } as const;

export const targetHeartRate: Template = {
  category: 'health',
  notes: 'Maximum heart rate estimated as 220 − age (Fox); individual maxima vary by ±10–12 bpm.',
  definition: {
    id: 'target-heart-rate',
    title: 'Target Heart Rate (Karvonen)',
    description: 'Finds your training heart-rate zone from your age and resting heart rate with the Karvonen method.',
    inputs: [
      ageInput({ min: 10, max: 100, default: 35 }),
      {
        key: 'restingHr',
        kind: 'number',
        label: 'Resting heart rate',
        unit: 'bpm',
        min: 30,
        max: 120,
        default: 65,
        step: 1,
      },
      {
        key: 'intensityLow',
        kind: 'number',
        label: 'Lower intensity',
        unit: '%',
        min: 30,
        max: 100,
        default: 50,
        help: 'Share of the heart-rate reserve at the bottom of the zone.',
      },
      {
        key: 'intensityHigh',
        kind: 'number',
        label: 'Upper intensity',
        unit: '%',
        min: 30,
        max: 100,
        default: 85,
        help: 'Share of the heart-rate reserve at the top of the zone; not below the lower intensity.',
      },
    ],
    variables: [
      { key: 'maxHr', formula: '220 - age' },
      // A zone needs a positive reserve and its bounds in order; otherwise no result at all.
      { key: 'valid', formula: 'restingHr < maxHr && intensityLow <= intensityHigh' },
    ],
    outputs: [
      { key: 'hrMax', label: 'Estimated max heart rate', formula: 'valid ? maxHr : 0 / 0', format: bpm },
      { key: 'low', label: 'Target zone from', formula: zoneBound('intensityLow'), format: bpm },
      { key: 'high', label: 'Target zone to', formula: zoneBound('intensityHigh'), format: bpm },
    ],
  },
};
