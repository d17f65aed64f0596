import type { CalculatorDefinition, NumberField } from './definition.ts';
import { readNumber } from './inputs.ts';

// 'currency' stands for the account's currency; the widget formats it with Intl.
const amount: NumberField = {
  key: 'amount',
  kind: 'number',
  label: 'Loan amount',
  unit: 'currency',
  min: 100,
  max: 100_000_000,
  default: 20_000,
};

const annualRate: NumberField = {
  key: 'annualRate',
  kind: 'number',
  label: 'Interest rate (annual)',
  unit: '%',
  min: 0,
  max: 100,
  default: 7.5,
  step: 0.01,
};

const termYears: NumberField = {
  key: 'termYears',
  kind: 'number',
  label: 'Term',
  unit: 'years',
  min: 1,
  max: 40,
  default: 5,
  step: 1,
};

/**
 * Monthly payment that repays `principal` over `months` at a nominal annual rate in
 * percent, compounded monthly (annuity formula): P·r / (1 − (1 + r)^−n), P/n at 0 %.
 */
export function monthlyPayment(principal: number, annualRatePercent: number, months: number): number {
  const r = annualRatePercent / 100 / 12;
  if (r === 0) return principal / months;
  // 1 − (1 + r)^−n computed as −expm1(−n·log1p(r)): exact-ish even for tiny r,
  // where the direct form loses digits to cancellation.
  return (principal * r) / -Math.expm1(-months * Math.log1p(r));
}

export const loan: CalculatorDefinition = {
  id: 'loan',
  category: 'finance',
  title: 'Loan Payment',
  description: 'Calculates the monthly payment, total repaid and total interest of a fixed-rate loan.',
  unitSystems: ['metric'],
  fields: [amount, annualRate, termYears],
  results: [
    { key: 'payment', label: 'Monthly payment', unit: 'currency', decimals: 2 },
    { key: 'totalPaid', label: 'Total paid', unit: 'currency', decimals: 2 },
    { key: 'totalInterest', label: 'Total interest', unit: 'currency', decimals: 2 },
  ],
  compute(values, system) {
    const principal = readNumber(values, amount, system);
    const rate = readNumber(values, annualRate, system);
    const years = readNumber(values, termYears, system);
    if (principal === null || rate === null || years === null) return null;
    const months = years * 12;
    const payment = monthlyPayment(principal, rate, months);
    return { payment, totalPaid: payment * months, totalInterest: payment * months - principal };
  },
  notes:
    'Fixed rate, monthly payments at the end of each month. Amounts are in the currency configured for the widget.',
};
