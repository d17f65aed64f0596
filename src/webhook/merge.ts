import {
  perSystem,
  type CalculatorDefinition,
  type Field,
  type NumberField,
  type UnitSystem,
} from '../calculators/definition.ts';

/** Result of {@link mergeWebhookValues}. */
export interface MergeResult {
  /** Accepted values by field key, unchanged (no unit conversion, no precedence). */
  values: Record<string, number | string>;
  /** Own keys of the body that were not accepted, in body order. */
  ignoredKeys: string[];
}

const ALL_SYSTEMS: UnitSystem[] = ['metric', 'imperial'];

function inRange(field: NumberField, value: number, systems: UnitSystem[]): boolean {
  // A field whose range depends on the unit system accepts a value valid in either:
  // the webhook does not know which system the visitor will see.
  return systems.some((system) => value >= perSystem(field.min, system) && value <= perSystem(field.max, system));
}

function accepts(field: Field, value: unknown, systems: UnitSystem[]): value is number | string {
  if (field.kind === 'number') {
    // Finite JSON numbers only: no numeric strings, no booleans, no null.
    return typeof value === 'number' && Number.isFinite(value) && inRange(field, value, systems);
  }
  return typeof value === 'string' && field.options.some((option) => option.value === value);
}

/**
 * Takes from a webhook body only the calculator's field keys with valid values.
 * Reads own enumerable data properties only and writes into a fresh object with
 * define semantics, so keys like `__proto__` or `constructor` never reach a prototype.
 */
export function mergeWebhookValues(calculator: CalculatorDefinition, body: unknown): MergeResult {
  const values: Record<string, number | string> = {};
  const ignoredKeys: string[] = [];
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { values, ignoredKeys };
  // A Map, not an object, for the lookup: `fields["constructor"]` on a plain object
  // would find Object.prototype.constructor.
  const fields = new Map<string, Field>(calculator.fields.map((field) => [field.key, field]));
  const systems = calculator.unitSystems.length > 0 ? calculator.unitSystems : ALL_SYSTEMS;
  for (const key of Object.keys(body)) {
    const descriptor = Object.getOwnPropertyDescriptor(body, key);
    const field = fields.get(key);
    // Data properties only: a getter is never invoked.
    if (
      field !== undefined &&
      descriptor !== undefined &&
      'value' in descriptor &&
      accepts(field, descriptor.value, systems)
    ) {
      // defineProperty, not assignment: `values.__proto__ = x` would set the prototype.
      Object.defineProperty(values, key, {
        value: descriptor.value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else {
      ignoredKeys.push(key);
    }
  }
  return { values, ignoredKeys };
}
