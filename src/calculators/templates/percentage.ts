import type { Template } from './template.ts';

export const percentage: Template = {
  category: 'everyday',
  notes:
    'The result is a plain number for "X% of Y" and a percentage for the other two modes. ' +
    'The change is relative to |X|, so a rise from a negative X is positive.',
  definition: {
    id: 'percentage',
    title: 'Percentage',
    description: 'Works out X% of Y, what percentage X is of Y, or the percentage change from X to Y.',
    inputs: [
      {
        key: 'mode',
        kind: 'select',
        label: 'Calculate',
        options: [
          { value: 'percentOf', label: 'X% of Y', number: 1 },
          { value: 'whatPercent', label: 'X is what % of Y', number: 2 },
          { value: 'change', label: '% change from X to Y', number: 3 },
        ],
        default: 'percentOf',
      },
      { key: 'x', kind: 'number', label: 'X', min: -1e12, max: 1e12, default: 15 },
      { key: 'y', kind: 'number', label: 'Y', min: -1e12, max: 1e12, default: 200 },
    ],
    outputs: [
      {
        key: 'result',
        label: 'Result',
        // Division by zero (Y = 0, or X = 0 for a change) has no answer: the result is empty.
        formula: 'mode == 1 ? x / 100 * y : mode == 2 ? x / y * 100 : (y - x) / abs(x) * 100',
        format: { style: 'number', decimals: 2 },
      },
    ],
  },
};
