/**
 * The catalogue as templates, in display order: the twelve calculators written in the
 * formula language (docs/calculators.md). Browser-safe data.
 */
import { bmi } from './bmi.ts';
import { bmr } from './bmr.ts';
import { bodyFat } from './body-fat.ts';
import { compoundInterest } from './compound-interest.ts';
import { fuelCost } from './fuel-cost.ts';
import { loan } from './loan.ts';
import { mortgage } from './mortgage.ts';
import { percentage } from './percentage.ts';
import { targetHeartRate } from './target-heart-rate.ts';
import { tdee } from './tdee.ts';
import type { Template } from './template.ts';
import { tip } from './tip.ts';
import { vat } from './vat.ts';

// Templates are module-wide singletons served to every request: frozen, so an accidental
// mutation throws instead of changing them for everyone.
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

export const templates: readonly Template[] = deepFreeze([
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
