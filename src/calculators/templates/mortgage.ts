import { loanRateInput, money, moneyInput, termYearsInput } from './parts.ts';
import type { Template } from './template.ts';

export const mortgage: Template = {
  category: 'finance',
  notes: 'PITI = principal, interest, taxes, insurance. Property tax is charged on the home price.',
  definition: {
    id: 'mortgage',
    title: 'Mortgage Payment (PITI)',
    description:
      'Calculates the total monthly cost of a home loan: principal and interest, property tax, insurance and HOA fees.',
    inputs: [
      moneyInput('homePrice', 'Home price', { min: 1000, max: 100_000_000, default: 400_000 }),
      moneyInput('downPayment', 'Down payment', {
        min: 0,
        max: 100_000_000,
        default: 80_000,
        help: 'Not more than the home price.',
      }),
      loanRateInput({ min: 0, max: 30, default: 6.5 }),
      termYearsInput({ min: 1, max: 40, default: 30 }),
      {
        key: 'propertyTaxRate',
        kind: 'number',
        label: 'Property tax (annual)',
        unit: '%',
        min: 0,
        max: 10,
        default: 1.1,
        step: 0.01,
        help: 'Yearly property tax as a percentage of the home price.',
      },
      moneyInput('insuranceYear', 'Home insurance (annual)', { min: 0, max: 100_000, default: 1500 }),
      moneyInput('hoaMonth', 'HOA / service charge (monthly)', { min: 0, max: 10_000, default: 0 }),
    ],
    variables: [
      // A down payment above the price leaves no loan to compute: no result at all.
      { key: 'principal', formula: 'downPayment <= homePrice ? homePrice - downPayment : 0 / 0' },
      { key: 'principalInterest', formula: 'pmt(annualRate / 100 / 12, termYears * 12, principal)' },
    ],
    outputs: [
      {
        key: 'monthly',
        label: 'Total monthly payment',
        formula: 'principalInterest + homePrice * propertyTaxRate / 100 / 12 + insuranceYear / 12 + hoaMonth',
        format: money,
      },
      { key: 'pi', label: 'Principal & interest', formula: 'principalInterest', format: money },
      {
        key: 'ltv',
        label: 'Loan-to-value',
        formula: 'principal / homePrice * 100',
        format: { style: 'percent', decimals: 1 },
      },
    ],
  },
};
