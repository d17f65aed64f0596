import { money, moneyInput } from './parts.ts';
import type { Template } from './template.ts';

export const compoundInterest: Template = {
  category: 'finance',
  notes:
    'Contributions at the end of each month; the effective monthly rate is derived from the nominal rate and the compounding frequency.',
  definition: {
    id: 'compound-interest',
    title: 'Compound Interest / Savings Growth',
    description: 'Projects how savings grow with compound interest and regular monthly contributions.',
    inputs: [
      moneyInput('principal', 'Initial deposit', { min: 0, max: 100_000_000, default: 10_000 }),
      moneyInput('monthlyContribution', 'Monthly contribution', {
        min: 0,
        max: 1_000_000,
        default: 200,
        help: 'Paid at the end of each month.',
      }),
      {
        key: 'annualRate',
        kind: 'number',
        label: 'Annual interest rate',
        unit: '%',
        min: -10,
        max: 50,
        default: 6,
        step: 0.01,
        help: 'Nominal yearly rate; negative for a loss.',
      },
      { key: 'years', kind: 'number', label: 'Years', unit: 'years', min: 1, max: 80, default: 10, step: 1 },
      {
        key: 'compounding',
        kind: 'select',
        label: 'Compounding',
        // Each option's number is its compounding periods per year.
        options: [
          { value: 'annually', label: 'Annually', number: 1 },
          { value: 'quarterly', label: 'Quarterly', number: 4 },
          { value: 'monthly', label: 'Monthly', number: 12 },
          { value: 'daily', label: 'Daily', number: 365 },
        ],
        default: 'monthly',
      },
    ],
    variables: [
      // The effective monthly rate equivalent to the nominal rate compounded `compounding` times
      // a year: (1 + rate/n)^(n/12) − 1, in the form that keeps its digits at small rates.
      { key: 'monthlyRate', formula: 'expm1(compounding / 12 * log1p(annualRate / 100 / compounding))' },
      { key: 'months', formula: 'years * 12' },
      // (1 + monthlyRate)^months − 1, likewise.
      { key: 'growth', formula: 'expm1(months * log1p(monthlyRate))' },
      { key: 'paidIn', formula: 'principal + monthlyContribution * months' },
      {
        key: 'futureValue',
        formula: 'monthlyRate == 0 ? paidIn : principal * (1 + growth) + monthlyContribution * growth / monthlyRate',
      },
    ],
    outputs: [
      { key: 'fv', label: 'Future value', formula: 'futureValue', format: money },
      { key: 'contributed', label: 'Total contributed', formula: 'paidIn', format: money },
      { key: 'interest', label: 'Interest earned', formula: 'futureValue - paidIn', format: money },
    ],
  },
};
