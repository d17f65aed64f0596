import type { CalculatorDefinition, NumberField, SelectField } from './definition.ts';
import { moneyField } from './fields.ts';
import { readNumber, readOption } from './inputs.ts';

const amount = moneyField('amount', 'Amount', { min: 0, max: 1_000_000_000, default: 100 });

const rate: NumberField = {
  key: 'rate',
  kind: 'number',
  label: 'Tax rate',
  unit: '%',
  min: 0,
  max: 100,
  default: 20,
  step: 0.01,
};

const mode: SelectField = {
  key: 'mode',
  kind: 'select',
  label: 'Amount is',
  options: [
    { value: 'net', label: 'Net (add tax)' },
    { value: 'gross', label: 'Gross (remove tax)' },
  ],
  default: 'net',
};

export const vat: CalculatorDefinition = {
  id: 'vat',
  category: 'finance',
  title: 'VAT / Sales Tax',
  description: 'Adds tax to a net amount or extracts it from a gross amount at a given rate.',
  unitSystems: ['metric'],
  fields: [amount, rate, mode],
  results: [
    { key: 'net', label: 'Net', unit: 'currency', decimals: 2 },
    { key: 'tax', label: 'Tax', unit: 'currency', decimals: 2 },
    { key: 'gross', label: 'Gross', unit: 'currency', decimals: 2 },
  ],
  compute(values, system) {
    const value = readNumber(values, amount, system);
    const percent = readNumber(values, rate, system);
    const kind = readOption(values, mode);
    if (value === null || percent === null || kind === null) return null;
    const factor = 1 + percent / 100;
    const net = kind === 'net' ? value : value / factor;
    const gross = kind === 'net' ? value * factor : value;
    return { net, tax: gross - net, gross };
  },
  notes: 'The default rate is only an example; rates differ by country (e.g. 19 % DE, 20 % UK and FR).',
};
