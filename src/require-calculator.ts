import { getTemplate, type Template } from './calculators/index.ts';
import { AppError } from './errors.ts';

/** The calculator with this id, or 404 `calculator_not_found`. */
export function requireCalculator(calcId: string): Template {
  const calculator = getTemplate(calcId);
  if (!calculator) throw new AppError('calculator_not_found', `There is no calculator "${calcId}".`);
  return calculator;
}

/**
 * Whether `calcId` names a calculator that `accountId` may show: the one test of "this
 * calculator exists" for counts keyed by an id a caller chose (refused widget calls), so
 * strangers cannot make an owner's usage store ids of their making. Today the catalogue;
 * calculators an owner builds join here.
 */
export function calculatorExists(_accountId: string, calcId: string): boolean {
  return getTemplate(calcId) !== undefined;
}
