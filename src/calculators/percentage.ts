import type { CalculatorDefinition, NumberField, SelectField } from './definition.ts';
import { readNumber, readOption } from './inputs.ts';

const mode: SelectField = {
  key: 'mode',
  kind: 'select',
  label: 'Calculate',
  options: [
    { value: 'percentOf', label: 'X% of Y' },
    { value: 'whatPercent', label: 'X is what % of Y' },
    { value: 'change', label: '% change from X to Y' },
  ],
  default: 'percentOf',
};

const x: NumberField = { key: 'x', kind: 'number', label: 'X', min: -1e12, max: 1e12, default: 15 };
const y: NumberField = { key: 'y', kind: 'number', label: 'Y', min: -1e12, max: 1e12, default: 200 };

export const percentage: CalculatorDefinition = {
  id: 'percentage',
  category: 'everyday',
  title: 'Percentage',
  description: 'Works out X% of Y, what percentage X is of Y, or the percentage change from X to Y.',
  unitSystems: ['metric'],
  fields: [mode, x, y],
  results: [{ key: 'result', label: 'Result', decimals: 2 }],
  compute(values, system) {
    const kind = readOption(values, mode);
    const xValue = readNumber(values, x, system);
    const yValue = readNumber(values, y, system);
    if (kind === null || xValue === null || yValue === null) return null;
    if (kind === 'percentOf') return { result: (xValue / 100) * yValue };
    // Division by zero has no meaningful answer: invalid input, never Infinity/NaN.
    if (kind === 'whatPercent') return yValue === 0 ? null : { result: (xValue / yValue) * 100 };
    return xValue === 0 ? null : { result: ((yValue - xValue) / Math.abs(xValue)) * 100 };
  },
  notes:
    'The result is a plain number for "X% of Y" and a percentage for the other two modes. ' +
    'The change is relative to |X|, so a rise from a negative X is positive.',
};
