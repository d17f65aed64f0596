import { expect, test } from 'bun:test';
import { calculatorLimitReached, DEFAULT_CALCULATOR_LIMITS, planWithMoreCalculators } from '../../../src/plans.ts';

test('the plan that allows more is the cheapest whose limit is above what the account has', () => {
  expect(planWithMoreCalculators(DEFAULT_CALCULATOR_LIMITS, 1)).toBe('base');
  expect(planWithMoreCalculators(DEFAULT_CALCULATOR_LIMITS, 10)).toBe('extra');
  expect(planWithMoreCalculators(DEFAULT_CALCULATOR_LIMITS, 100)).toBeNull();
  // An operator's limits need not rise with the price: the cheapest that allows more wins.
  expect(planWithMoreCalculators({ free: 5, base: 3, extra: 8 }, 4)).toBe('free');
});

test("the message names the account's plan, its count, the plan for more and the operator's command", () => {
  const owner = { email: 'owner@shop.example', plan: 'base' as const };
  expect(calculatorLimitReached(owner, DEFAULT_CALCULATOR_LIMITS, 10)).toBe(
    'The Base plan allows 10 calculators of your own, and this account has 10. The Extra plan allows 100: whoever runs this server changes plans with `calc admin accounts set-plan --email owner@shop.example --plan extra`. Deleting a calculator frees its place.',
  );
  expect(calculatorLimitReached({ ...owner, plan: 'extra' }, DEFAULT_CALCULATOR_LIMITS, 100)).toBe(
    'The Extra plan allows 100 calculators of your own, and this account has 100. No plan allows more. Deleting a calculator frees its place.',
  );
});
