/**
 * Unit conversion with the exact legal factors (international yard and pound
 * agreement, 1959). Browser-safe: used by display aliases (evaluation and validation)
 * and by the widget's unit switch.
 */

const KG_PER_LB = 0.45359237;
const CM_PER_IN = 2.54;

/** Pounds to kilograms (exact factor). */
export function lbToKg(lb: number): number {
  return lb * KG_PER_LB;
}

/** Kilograms to pounds (exact factor). */
export function kgToLb(kg: number): number {
  return kg / KG_PER_LB;
}

/** Inches to centimetres (exact factor). */
export function inToCm(inches: number): number {
  return inches * CM_PER_IN;
}

/** Centimetres to inches (exact factor). */
export function cmToIn(cm: number): number {
  return cm / CM_PER_IN;
}

// Each convertible unit as a multiple of its dimension's base unit (kg, cm).
const unitScale: ReadonlyMap<string, { dimension: 'mass' | 'length'; scale: number }> = new Map([
  ['kg', { dimension: 'mass', scale: 1 }],
  ['lb', { dimension: 'mass', scale: KG_PER_LB }],
  ['cm', { dimension: 'length', scale: 1 }],
  ['in', { dimension: 'length', scale: CM_PER_IN }],
]);

/**
 * Converts a value between two units named as in field definitions ('kg', 'lb',
 * 'cm', 'in'). Returns the value unchanged when the units are equal, and null when
 * either unit is unknown or they measure different things.
 */
export function convertUnit(value: number, from: string, to: string): number | null {
  if (from === to) return value;
  const source = unitScale.get(from);
  const target = unitScale.get(to);
  if (!source || !target || source.dimension !== target.dimension) return null;
  // Multiply first so lb→kg and in→cm use the exact factor with a single rounding.
  return target.scale === 1 ? value * source.scale : (value * source.scale) / target.scale;
}
