import { money, moneyInput } from './parts.ts';
import type { Template } from './template.ts';

export const tip: Template = {
  category: 'everyday',
  definition: {
    id: 'tip',
    title: 'Tip & Bill Split',
    description: 'Calculates the tip and the total of a bill and splits it evenly between people.',
    inputs: [
      moneyInput('bill', 'Bill amount', { min: 0, max: 1_000_000, default: 50 }),
      { key: 'tipPercent', kind: 'number', label: 'Tip', unit: '%', min: 0, max: 100, default: 15, step: 0.5 },
      { key: 'people', kind: 'number', label: 'Number of people', min: 1, max: 100, default: 1, step: 1 },
    ],
    variables: [
      // A bill is split between whole people; otherwise there is no result at all.
      { key: 'tipAmount', formula: 'floor(people) == people ? bill * tipPercent / 100 : 0 / 0' },
      { key: 'billTotal', formula: 'bill + tipAmount' },
    ],
    outputs: [
      { key: 'tip', label: 'Tip', formula: 'tipAmount', format: money },
      { key: 'total', label: 'Total', formula: 'billTotal', format: money },
      { key: 'perPerson', label: 'Per person', formula: 'billTotal / people', format: money },
    ],
  },
};
