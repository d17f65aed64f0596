import { getTemplate, type Template } from './calculators/index.ts';
import { AppError } from './errors.ts';

/** The calculator with this id, or 404 `calculator_not_found`. */
export function requireCalculator(calcId: string): Template {
  const calculator = getTemplate(calcId);
  if (!calculator) throw new AppError('calculator_not_found', `There is no calculator "${calcId}".`);
  return calculator;
}
