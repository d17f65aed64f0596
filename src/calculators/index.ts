/**
 * The calculator catalogue, in display order. Shared by the server (catalogue routes,
 * webhook merge) and the widget bundle, so it imports nothing but browser-safe code.
 */
import type { CalculatorDefinition } from './definition.ts';
import { bmi } from './bmi.ts';
import { bmr } from './bmr.ts';
import { tdee } from './tdee.ts';
import { bodyFat } from './body-fat.ts';
import { targetHeartRate } from './target-heart-rate.ts';
import { loan } from './loan.ts';
import { mortgage } from './mortgage.ts';
import { compoundInterest } from './compound-interest.ts';
import { vat } from './vat.ts';
import { percentage } from './percentage.ts';
import { tip } from './tip.ts';
import { fuelCost } from './fuel-cost.ts';

// Definitions are module-wide singletons served to every request: freeze them so an
// accidental mutation throws instead of changing the catalogue for everyone.
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

export const calculators: readonly CalculatorDefinition[] = deepFreeze([
  bmi,
  bmr,
  tdee,
  bodyFat,
  targetHeartRate,
  loan,
  mortgage,
  compoundInterest,
  vat,
  percentage,
  tip,
  fuelCost,
]);

// A Map, not an object: ids like "__proto__" or "toString" must not find anything.
const byId: ReadonlyMap<string, CalculatorDefinition> = new Map(
  calculators.map((calculator) => [calculator.id, calculator]),
);

export const calculatorIds: readonly string[] = Object.freeze(calculators.map((calculator) => calculator.id));

/** The calculator with this id, or undefined for any other string. */
export function getCalculator(id: string): CalculatorDefinition | undefined {
  return byId.get(id);
}
