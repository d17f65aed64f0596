import type { CalculatorDefinition } from './definition.ts';
import { loanRateField, moneyField, termYearsField } from './fields.ts';
import { readNumber } from './inputs.ts';

const amount = moneyField('amount', 'Loan amount', { min: 100, max: 100_000_000, default: 20_000 });
const annualRate = loanRateField({ min: 0, max: 100, default: 7.5 });
const termYears = termYearsField({ min: 1, max: 40, default: 5 });

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
