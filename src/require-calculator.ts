import type { CalculatorDefinition } from './calculators/definition.ts';
import { getCalculator } from './calculators/index.ts';
import { AppError } from './errors.ts';

/** The calculator with this id, or 404 `calculator_not_found`. */
export function requireCalculator(calcId: string): CalculatorDefinition {
  const calculator = getCalculator(calcId);
  if (!calculator) throw new AppError('calculator_not_found', `There is no calculator "${calcId}".`);
  return calculator;
}
