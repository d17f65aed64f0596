import type { CalculatorDefinition, NumberField } from './definition.ts';
import { moneyField } from './fields.ts';
import { readNumber } from './inputs.ts';

const bill = moneyField('bill', 'Bill amount', { min: 0, max: 1_000_000, default: 50 });

const tipPercent: NumberField = {
  key: 'tipPercent',
  kind: 'number',
  label: 'Tip',
  unit: '%',
  min: 0,
  max: 100,
  default: 15,
  step: 0.5,
};

const people: NumberField = {
  key: 'people',
  kind: 'number',
  label: 'Number of people',
  min: 1,
  max: 100,
  default: 1,
  step: 1,
};

export const tip: CalculatorDefinition = {
  id: 'tip',
  category: 'everyday',
  title: 'Tip & Bill Split',
  description: 'Calculates the tip and the total of a bill and splits it evenly between people.',
  unitSystems: ['metric'],
  fields: [bill, tipPercent, people],
  results: [
    { key: 'tip', label: 'Tip', unit: 'currency', decimals: 2 },
    { key: 'total', label: 'Total', unit: 'currency', decimals: 2 },
    { key: 'perPerson', label: 'Per person', unit: 'currency', decimals: 2 },
  ],
  compute(values, system) {
    const amount = readNumber(values, bill, system);
    const percent = readNumber(values, tipPercent, system);
    const headcount = readNumber(values, people, system);
    // A bill is split between whole people.
    if (amount === null || percent === null || headcount === null || !Number.isInteger(headcount)) return null;
    const tipAmount = (amount * percent) / 100;
    const total = amount + tipAmount;
    return { tip: tipAmount, total, perPerson: total / headcount };
  },
};
