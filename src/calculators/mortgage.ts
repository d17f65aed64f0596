import type { CalculatorDefinition, NumberField } from './definition.ts';
import { loanRateField, moneyField, termYearsField } from './fields.ts';
import { readNumber } from './inputs.ts';
import { monthlyPayment } from './loan.ts';

const homePrice = moneyField('homePrice', 'Home price', { min: 1000, max: 100_000_000, default: 400_000 });
const downPayment = moneyField('downPayment', 'Down payment', {
  min: 0,
  max: 100_000_000,
  default: 80_000,
  help: 'Not more than the home price.',
});
const annualRate = loanRateField({ min: 0, max: 30, default: 6.5 });
const termYears = termYearsField({ min: 1, max: 40, default: 30 });

const propertyTaxRate: NumberField = {
  key: 'propertyTaxRate',
  kind: 'number',
  label: 'Property tax (annual)',
  unit: '%',
  min: 0,
  max: 10,
  default: 1.1,
  step: 0.01,
  help: 'Yearly property tax as a percentage of the home price.',
};

const insuranceYear = moneyField('insuranceYear', 'Home insurance (annual)', { min: 0, max: 100_000, default: 1500 });
const hoaMonth = moneyField('hoaMonth', 'HOA / service charge (monthly)', { min: 0, max: 10_000, default: 0 });

export const mortgage: CalculatorDefinition = {
  id: 'mortgage',
  category: 'finance',
  title: 'Mortgage Payment (PITI)',
  description:
    'Calculates the total monthly cost of a home loan: principal and interest, property tax, insurance and HOA fees.',
  unitSystems: ['metric'],
  fields: [homePrice, downPayment, annualRate, termYears, propertyTaxRate, insuranceYear, hoaMonth],
  results: [
    { key: 'monthly', label: 'Total monthly payment', unit: 'currency', decimals: 2 },
    { key: 'pi', label: 'Principal & interest', unit: 'currency', decimals: 2 },
    { key: 'ltv', label: 'Loan-to-value', unit: '%', decimals: 1 },
  ],
  compute(values, system) {
    const price = readNumber(values, homePrice, system);
    const down = readNumber(values, downPayment, system);
    const rate = readNumber(values, annualRate, system);
    const years = readNumber(values, termYears, system);
    const taxRate = readNumber(values, propertyTaxRate, system);
    const insurance = readNumber(values, insuranceYear, system);
    const hoa = readNumber(values, hoaMonth, system);
    if (price === null || down === null || rate === null || years === null) return null;
    if (taxRate === null || insurance === null || hoa === null) return null;
    if (down > price) return null;
    const principal = price - down;
    const pi = monthlyPayment(principal, rate, years * 12);
    const monthly = pi + (price * taxRate) / 100 / 12 + insurance / 12 + hoa;
    return { monthly, pi, ltv: (principal / price) * 100 };
  },
  notes: 'PITI = principal, interest, taxes, insurance. Property tax is charged on the home price.',
};
