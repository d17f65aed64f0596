import { perSystem } from '../definition/systems.ts';
import type { Definition, Input, InputValues, NumberInput, UnitSystem } from '../definition/types.ts';

/** Result of {@link mergeWebhookValues}. */
export interface MergeResult {
  /** Accepted values by input key, unchanged (no unit conversion, no precedence). */
  values: InputValues;
  /** Own keys of the body that were not accepted, in body order. */
  ignoredKeys: string[];
}

function inRange(input: NumberInput, value: number, systems: readonly UnitSystem[]): boolean {
  // An input whose range depends on the unit system accepts a value valid in either:
  // the webhook does not know which system the visitor will see.
  return systems.some((system) => value >= perSystem(input.min, system) && value <= perSystem(input.max, system));
}

/**
 * The rules of pre-fill (docs/calculators.md, "Pre-fill"): a number input takes a finite
 * JSON number within its range (no numeric strings, no booleans, no null), a select one
 * of its option values, a toggle a JSON boolean.
 */
function accepts(input: Input, value: unknown, systems: readonly UnitSystem[]): value is number | string | boolean {
  if (input.kind === 'number')
    return typeof value === 'number' && Number.isFinite(value) && inRange(input, value, systems);
  if (input.kind === 'toggle') return typeof value === 'boolean';
  return typeof value === 'string' && input.options.some((option) => option.value === value);
}

/**
 * Takes from a webhook body only the definition's input keys with valid values (every
 * input: bmi's canonical keys and their display aliases alike). Reads own enumerable data
 * properties only and writes into a fresh object with define semantics, so keys like
 * `__proto__` or `constructor` never reach a prototype.
 */
export function mergeWebhookValues(definition: Definition, body: unknown): MergeResult {
  const values: MergeResult['values'] = {};
  const ignoredKeys: string[] = [];
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { values, ignoredKeys };
  // A Map, not an object, for the lookup: `inputs["constructor"]` on a plain object
  // would find Object.prototype.constructor.
  const inputs = new Map<string, Input>(definition.inputs.map((input) => [input.key, input]));
  const systems = definition.unitSystems ?? ['metric'];
  for (const key of Object.keys(body)) {
    const descriptor = Object.getOwnPropertyDescriptor(body, key);
    const input = inputs.get(key);
    // Data properties only: a getter is never invoked.
    if (
      input !== undefined &&
      descriptor !== undefined &&
      'value' in descriptor &&
      accepts(input, descriptor.value, systems)
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
