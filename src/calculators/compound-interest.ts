import type { CalculatorDefinition, NumberField, SelectField } from './definition.ts';
import { moneyField } from './fields.ts';
import { readNumber, readOption } from './inputs.ts';

const principal = moneyField('principal', 'Initial deposit', { min: 0, max: 100_000_000, default: 10_000 });
const monthlyContribution = moneyField('monthlyContribution', 'Monthly contribution', {
  min: 0,
  max: 1_000_000,
  default: 200,
  help: 'Paid at the end of each month.',
});

const annualRate: NumberField = {
  key: 'annualRate',
  kind: 'number',
  label: 'Annual interest rate',
  unit: '%',
  min: -10,
  max: 50,
  default: 6,
  step: 0.01,
  help: 'Nominal yearly rate; negative for a loss.',
};

const years: NumberField = {
  key: 'years',
  kind: 'number',
  label: 'Years',
  unit: 'years',
  min: 1,
  max: 80,
  default: 10,
  step: 1,
};

// Compounding periods per year, keyed by option value.
const periodsPerYear: ReadonlyMap<string, number> = new Map([
  ['annually', 1],
  ['quarterly', 4],
  ['monthly', 12],
  ['daily', 365],
]);

const compounding: SelectField = {
  key: 'compounding',
  kind: 'select',
  label: 'Compounding',
  options: [
    { value: 'annually', label: 'Annually' },
    { value: 'quarterly', label: 'Quarterly' },
    { value: 'monthly', label: 'Monthly' },
    { value: 'daily', label: 'Daily' },
  ],
  default: 'monthly',
};

/**
 * Future value after `months` months of a deposit plus end-of-month contributions.
 * `monthlyRate` is the effective monthly rate (0.01 = 1 %).
 */
function futureValue(deposit: number, contribution: number, monthlyRate: number, months: number): number {
  if (monthlyRate === 0) return deposit + contribution * months;
  // (1 + i)^m − 1 via expm1/log1p keeps its digits when i is tiny (no cancellation).
  const growthMinusOne = Math.expm1(months * Math.log1p(monthlyRate));
  return deposit * (1 + growthMinusOne) + (contribution * growthMinusOne) / monthlyRate;
}

/** Effective monthly rate equivalent to a nominal annual rate (percent) compounded `periods` times a year. */
export function effectiveMonthlyRate(annualRatePercent: number, periods: number): number {
  return Math.expm1((periods / 12) * Math.log1p(annualRatePercent / 100 / periods));
}

export const compoundInterest: CalculatorDefinition = {
  id: 'compound-interest',
  category: 'finance',
  title: 'Compound Interest / Savings Growth',
  description: 'Projects how savings grow with compound interest and regular monthly contributions.',
  unitSystems: ['metric'],
  fields: [principal, monthlyContribution, annualRate, years, compounding],
  results: [
    { key: 'fv', label: 'Future value', unit: 'currency', decimals: 2 },
    { key: 'contributed', label: 'Total contributed', unit: 'currency', decimals: 2 },
    { key: 'interest', label: 'Interest earned', unit: 'currency', decimals: 2 },
  ],
  compute(values, system) {
    const deposit = readNumber(values, principal, system);
    const contribution = readNumber(values, monthlyContribution, system);
    const rate = readNumber(values, annualRate, system);
    const duration = readNumber(values, years, system);
    const frequency = readOption(values, compounding);
    const periods = frequency === null ? undefined : periodsPerYear.get(frequency);
    if (deposit === null || contribution === null || rate === null || duration === null || periods === undefined) {
      return null;
    }
    const months = duration * 12;
    const fv = futureValue(deposit, contribution, effectiveMonthlyRate(rate, periods), months);
    const contributed = deposit + contribution * months;
    return { fv, contributed, interest: fv - contributed };
  },
  notes:
    'Contributions at the end of each month; the effective monthly rate is derived from the nominal rate and the compounding frequency.',
};
