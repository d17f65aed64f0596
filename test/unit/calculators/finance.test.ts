import { describe, expect, test } from 'bun:test';
import { catalogue } from './support/catalogue.ts';

const loan = catalogue('loan');
const mortgage = catalogue('mortgage');
const compoundInterest = catalogue('compound-interest');
const vat = catalogue('vat');

/** The monthly payment of `amount` over `months` at a nominal annual rate in percent, as the loan template computes it. */
const monthlyPayment = (amount: number, annualRatePercent: number, months: number) =>
  loan.compute({ amount, annualRate: annualRatePercent, termYears: months / 12 }, 'metric')?.payment;

describe('loan', () => {
  test('200 000 at 6 % for 30 years = 1199.10 a month', () => {
    const result = loan.compute({ amount: 200_000, annualRate: 6, termYears: 30 }, 'metric');
    expect(result?.payment).toBeCloseTo(1199.1, 2);
    expect(result?.totalPaid).toBeCloseTo(431_676.38, 2);
    expect(result?.totalInterest).toBeCloseTo(231_676.38, 2);
  });

  test('20 000 at 7.5 % for 5 years = 400.76 a month', () => {
    expect(loan.compute({ amount: 20_000, annualRate: 7.5, termYears: 5 }, 'metric')?.payment).toBeCloseTo(400.76, 2);
  });

  test('0 % spreads the amount evenly, with no interest', () => {
    expect(loan.compute({ amount: 12_000, annualRate: 0, termYears: 1 }, 'metric')).toEqual({
      payment: 1000,
      totalPaid: 12_000,
      totalInterest: 0,
    });
    // Continuous near zero: a tiny rate gives (almost) the same payment.
    expect(monthlyPayment(12_000, 1e-9, 12)).toBeCloseTo(1000, 6);
  });

  test('out-of-range amount, rate or term gives null', () => {
    expect(loan.compute({ amount: 99, annualRate: 6, termYears: 30 }, 'metric')).toBeNull();
    expect(loan.compute({ amount: 200_000, annualRate: -1, termYears: 30 }, 'metric')).toBeNull();
    expect(loan.compute({ amount: 200_000, annualRate: 6, termYears: 41 }, 'metric')).toBeNull();
  });
});

describe('mortgage', () => {
  test('400 000 home, 80 000 down, 6.5 %, 30 y, 1.1 % tax, 1500 insurance', () => {
    const result = mortgage.compute(
      {
        homePrice: 400_000,
        downPayment: 80_000,
        annualRate: 6.5,
        termYears: 30,
        propertyTaxRate: 1.1,
        insuranceYear: 1500,
        hoaMonth: 0,
      },
      'metric',
    );
    // 320 000 at 6.5 % over 30 years = 2022.62; tax 366.67; insurance 125.
    expect(result?.pi).toBeCloseTo(2022.62, 2);
    expect(result?.monthly).toBeCloseTo(2514.28, 2);
    expect(result?.ltv).toBe(80);
  });

  test('HOA is added monthly; paying in full leaves only costs', () => {
    const result = mortgage.compute(
      {
        homePrice: 300_000,
        downPayment: 300_000,
        annualRate: 5,
        termYears: 30,
        propertyTaxRate: 1.2,
        insuranceYear: 1200,
        hoaMonth: 250,
      },
      'metric',
    );
    // 300 + 100 + 250
    expect(result).toEqual({ monthly: 650, pi: 0, ltv: 0 });
  });

  test('a down payment above the price gives null', () => {
    const values = {
      homePrice: 300_000,
      downPayment: 300_001,
      annualRate: 5,
      termYears: 30,
      propertyTaxRate: 1,
      insuranceYear: 0,
      hoaMonth: 0,
    };
    expect(mortgage.compute(values, 'metric')).toBeNull();
  });
});

describe('compound interest', () => {
  const base = { monthlyContribution: 0, years: 10 };

  test('1000 at 5 % compounded monthly for 10 years = 1647.01', () => {
    const result = compoundInterest.compute(
      { ...base, principal: 1000, annualRate: 5, compounding: 'monthly' },
      'metric',
    );
    expect(result?.fv).toBeCloseTo(1647.01, 2);
    expect(result?.contributed).toBe(1000);
    expect(result?.interest).toBeCloseTo(647.01, 2);
  });

  test('annual compounding: 1000 at 5 % for 10 years = 1628.89', () => {
    const result = compoundInterest.compute(
      { ...base, principal: 1000, annualRate: 5, compounding: 'annually' },
      'metric',
    );
    expect(result?.fv).toBeCloseTo(1628.89, 2);
  });

  test('daily compounding: 1000 at 5 % for 1 year = 1051.27', () => {
    const result = compoundInterest.compute(
      { ...base, years: 1, principal: 1000, annualRate: 5, compounding: 'daily' },
      'metric',
    );
    expect(result?.fv).toBeCloseTo(1051.27, 2);
  });

  test('100 a month at 12 % compounded monthly for a year = 1268.25 (end-of-month payments)', () => {
    const result = compoundInterest.compute(
      { principal: 0, monthlyContribution: 100, annualRate: 12, years: 1, compounding: 'monthly' },
      'metric',
    );
    expect(result?.fv).toBeCloseTo(1268.25, 2);
    expect(result?.contributed).toBe(1200);
    expect(result?.interest).toBeCloseTo(68.25, 2);
  });

  test('quarterly compounding gives an effective monthly rate that compounds to the quarterly rate', () => {
    // A year of the effective monthly rate is four quarters of 2 %.
    const result = compoundInterest.compute(
      { principal: 1000, monthlyContribution: 0, annualRate: 8, years: 1, compounding: 'quarterly' },
      'metric',
    );
    expect(result?.fv).toBeCloseTo(1000 * 1.02 ** 4, 9);
  });

  test('0 % only adds up the deposits; a negative rate shrinks them', () => {
    const flat = compoundInterest.compute(
      { principal: 1000, monthlyContribution: 50, annualRate: 0, years: 2, compounding: 'monthly' },
      'metric',
    );
    expect(flat).toEqual({ fv: 2200, contributed: 2200, interest: 0 });
    const loss = compoundInterest.compute(
      { ...base, principal: 1000, annualRate: -10, compounding: 'annually' },
      'metric',
    );
    expect(loss?.fv).toBeCloseTo(1000 * 0.9 ** 10, 8);
  });

  test('an unknown compounding option gives null', () => {
    expect(
      compoundInterest.compute({ ...base, principal: 1000, annualRate: 5, compounding: '12' }, 'metric'),
    ).toBeNull();
  });
});

describe('vat', () => {
  test('net 100 at 20 % → tax 20, gross 120', () => {
    const result = vat.compute({ amount: 100, rate: 20, mode: 'net' }, 'metric');
    expect(result?.net).toBe(100);
    expect(result?.tax).toBeCloseTo(20, 10);
    expect(result?.gross).toBeCloseTo(120, 10);
  });

  test('gross 119 at 19 % → net 100, tax 19', () => {
    const result = vat.compute({ amount: 119, rate: 19, mode: 'gross' }, 'metric');
    expect(result?.net).toBeCloseTo(100, 10);
    expect(result?.tax).toBeCloseTo(19, 10);
    expect(result?.gross).toBe(119);
  });

  test('an unknown mode gives null', () => {
    expect(vat.compute({ amount: 100, rate: 20, mode: 'both' }, 'metric')).toBeNull();
  });
});

describe('tiny rates', () => {
  test('a rate just above zero matches the 0 % result (no cancellation error)', () => {
    expect(monthlyPayment(100_000_000, 1e-9, 480)).toBeCloseTo(100_000_000 / 480, 4);
    const almostFlat = compoundInterest.compute(
      { principal: 100_000_000, monthlyContribution: 1_000_000, annualRate: 1e-9, years: 80, compounding: 'daily' },
      'metric',
    );
    expect(almostFlat?.fv).toBeCloseTo(100_000_000 + 1_000_000 * 960, 0);
  });
});
