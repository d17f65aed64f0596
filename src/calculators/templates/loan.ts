import { loanRateInput, money, moneyInput, termYearsInput } from './parts.ts';
import type { Template } from './template.ts';

export const loan: Template = {
  category: 'finance',
  notes:
    'Fixed rate, monthly payments at the end of each month. Amounts are in the currency configured for the widget.',
  definition: {
    id: 'loan',
    title: 'Loan Payment',
    description: 'Calculates the monthly payment, total repaid and total interest of a fixed-rate loan.',
    inputs: [
      moneyInput('amount', 'Loan amount', { min: 100, max: 100_000_000, default: 20_000 }),
      loanRateInput({ min: 0, max: 100, default: 7.5 }),
      termYearsInput({ min: 1, max: 40, default: 5 }),
    ],
    variables: [
      { key: 'months', formula: 'termYears * 12' },
      // A nominal annual rate in percent, compounded monthly.
      { key: 'monthly', formula: 'pmt(annualRate / 100 / 12, months, amount)' },
    ],
    outputs: [
      { key: 'payment', label: 'Monthly payment', formula: 'monthly', format: money },
      { key: 'totalPaid', label: 'Total paid', formula: 'monthly * months', format: money },
      { key: 'totalInterest', label: 'Total interest', formula: 'monthly * months - amount', format: money },
    ],
  },
};
