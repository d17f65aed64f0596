/**
 * Unit conversion for switching the displayed unit system: the catalogue's mass and
 * length units, plus the trip units of fuel-cost (exact US definitions).
 */
import { convertUnit } from '../../src/definition/units.ts';

const KM_PER_MI = 1.609344;
const L_PER_GAL = 3.785411784;
// L/100 km = this / mpg (US), and back.
const L100KM_MPG = (100 * L_PER_GAL) / KM_PER_MI;

type Conversion = (value: number) => number;

const extra: ReadonlyMap<string, Conversion> = new Map([
  ['km>mi', (v: number) => v / KM_PER_MI],
  ['mi>km', (v: number) => v * KM_PER_MI],
  ['L/100 km>mpg (US)', (v: number) => L100KM_MPG / v],
  ['mpg (US)>L/100 km', (v: number) => L100KM_MPG / v],
  // A price per litre times litres per gallon is a price per gallon.
  ['currency/L>currency/gal', (v: number) => v * L_PER_GAL],
  ['currency/gal>currency/L', (v: number) => v / L_PER_GAL],
]);

/** `value` in `to`, or null when there is no conversion between the two units. */
export function convertDisplayed(value: number, from: string, to: string): number | null {
  const known = convertUnit(value, from, to);
  if (known !== null) return known;
  const conversion = extra.get(`${from}>${to}`);
  if (!conversion) return null;
  const converted = conversion(value);
  return Number.isFinite(converted) ? converted : null;
}
