/**
 * Reading field values inside compute functions: every value is checked against its
 * field's definition, so a compute only ever sees finite, in-range numbers and known
 * options (and returns null otherwise).
 */
import { perSystem, type FieldValues, type NumberField, type SelectField, type UnitSystem } from './definition.ts';
import { convertUnit } from './units.ts';

// Own properties only: values may come from JSON with keys like "__proto__".
function ownValue(values: FieldValues, key: string): number | string | undefined {
  return Object.hasOwn(values, key) ? values[key] : undefined;
}

/** The field's value if it is a finite number within the field's range in `system`, else null. */
export function readNumber(values: FieldValues, field: NumberField, system: UnitSystem): number | null {
  return inRange(ownValue(values, field.key), field, system);
}

/** The field's value if it is one of the field's option values, else null. */
export function readOption(values: FieldValues, field: SelectField): string | null {
  const value = ownValue(values, field.key);
  return typeof value === 'string' && field.options.some((option) => option.value === value) ? value : null;
}

/**
 * A quantity that arrives under its canonical key (always in the canonical unit, e.g.
 * `weightKg`) or under a display alias in `system`'s unit (e.g. `weight` in lb when
 * imperial). The canonical key wins whenever it holds a number; the result is in the
 * canonical unit. Null when the winning value is missing, non-finite or out of range.
 */
export function readCanonical(
  values: FieldValues,
  canonical: NumberField,
  alias: NumberField,
  system: UnitSystem,
): number | null {
  if (typeof ownValue(values, canonical.key) === 'number') return readNumber(values, canonical, system);
  const aliasValue = readNumber(values, alias, system);
  if (aliasValue === null) return null;
  const converted = convertUnit(aliasValue, unitOf(alias, system), unitOf(canonical, system));
  // The canonical range stays the authority, whichever key the value came in.
  return inRange(converted ?? undefined, canonical, system);
}

function inRange(value: unknown, field: NumberField, system: UnitSystem): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  if (value < perSystem(field.min, system) || value > perSystem(field.max, system)) return null;
  return value;
}

function unitOf(field: NumberField, system: UnitSystem): string {
  return field.unit === undefined ? '' : perSystem(field.unit, system);
}
