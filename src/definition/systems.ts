import { textIn } from './text.ts';
import type { Text, UnitSystem } from './types.ts';

/** A value that is the same in every unit system, or one value per system. */
export type PerSystem<T> = T | { metric: T; imperial: T };

/** The value shown in `system`. */
export function perSystem<T>(value: PerSystem<T>, system: UnitSystem): T {
  if (typeof value === 'object' && value !== null && 'metric' in value && 'imperial' in value) {
    return value[system];
  }
  return value as T;
}

/** The unit a number input is entered in, as conversions name it ('kg', 'lb'); '' without one. */
export function unitIn(input: { unit?: PerSystem<Text> }, system: UnitSystem): string {
  return input.unit === undefined ? '' : textIn(perSystem(input.unit, system), 'en');
}
