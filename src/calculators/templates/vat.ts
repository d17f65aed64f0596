import { money, moneyInput } from './parts.ts';
import type { Template } from './template.ts';

export const vat: Template = {
  category: 'finance',
  notes: 'The default rate is only an example; rates differ by country (e.g. 19 % DE, 20 % UK and FR).',
  definition: {
    id: 'vat',
    title: 'VAT / Sales Tax',
    description: 'Adds tax to a net amount or extracts it from a gross amount at a given rate.',
    inputs: [
      moneyInput('amount', 'Amount', { min: 0, max: 1_000_000_000, default: 100 }),
      { key: 'rate', kind: 'number', label: 'Tax rate', unit: '%', min: 0, max: 100, default: 20, step: 0.01 },
      {
        key: 'mode',
        kind: 'select',
        label: 'Amount is',
        // 1 when the amount is net, 0 when it is gross.
        options: [
          { value: 'net', label: 'Net (add tax)', number: 1 },
          { value: 'gross', label: 'Gross (remove tax)', number: 0 },
        ],
        default: 'net',
      },
    ],
    variables: [
      { key: 'factor', formula: '1 + rate / 100' },
      { key: 'netAmount', formula: 'mode == 1 ? amount : amount / factor' },
      { key: 'grossAmount', formula: 'mode == 1 ? amount * factor : amount' },
    ],
    outputs: [
      { key: 'net', label: 'Net', formula: 'netAmount', format: money },
      { key: 'tax', label: 'Tax', formula: 'grossAmount - netAmount', format: money },
      { key: 'gross', label: 'Gross', formula: 'grossAmount', format: money },
    ],
  },
};
