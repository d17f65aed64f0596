/**
 * Evaluates a compiled definition for the values a visitor (or a pre-fill) gave, keyed by
 * input key, in the displayed unit system. The rules (docs/calculators.md, "Evaluation"):
 * - a visible input whose value is missing, of the wrong type, out of range or not an
 *   option makes every output null;
 * - a hidden input (its visibleIf not met) has no value: reading it gives NaN, so a
 *   result built on it is null unless the read sits in a branch not taken;
 * - a number input with a display alias takes its own key when that holds a number,
 *   else the alias's value (in the displayed unit, within the alias's range), converted
 *   to its own unit and held to its own range;
 * - an output that is not a finite number is null.
 * It never throws.
 */
import { perSystem, unitIn } from './systems.ts';
import { convertUnit } from './units.ts';
import { evaluate as evaluateFormula } from '../formula/evaluate.ts';
import type { CompiledDefinition, CompiledInput } from './compile.ts';
import type { NumberInput, UnitSystem } from './types.ts';

/** Input values by key: numbers, option values (strings), booleans or 1/0 for toggles. */
export type Values = Readonly<Record<string, unknown>>;

export type Outputs = Record<string, number | null>;

// Own properties only: values may come from JSON with keys like "__proto__".
const own = (values: Values, key: string): unknown => (Object.hasOwn(values, key) ? values[key] : undefined);

function inRange(value: unknown, input: NumberInput, system: UnitSystem): value is number {
  // NaN fails both comparisons, and the bounds are finite: an accepted value is finite.
  return typeof value === 'number' && value >= perSystem(input.min, system) && value <= perSystem(input.max, system);
}

/** [the value formulas see, the value visibleIf compares], or undefined when invalid. */
function read({ input, alias }: CompiledInput, values: Values, system: UnitSystem): [number, unknown] | undefined {
  const value = own(values, input.key);
  if (input.kind === 'select') {
    const option = input.options.find((candidate) => candidate.value === value);
    return option ? [option.number ?? Number.NaN, value] : undefined;
  }
  if (input.kind === 'toggle') {
    return value === true || value === 1 ? [1, true] : value === false || value === 0 ? [0, false] : undefined;
  }
  if (alias && typeof value !== 'number') {
    const shown = own(values, alias.key);
    if (!inRange(shown, alias, system)) return undefined;
    const converted = convertUnit(shown, unitIn(alias, system), unitIn(input, system));
    return inRange(converted, input, system) ? [converted, converted] : undefined;
  }
  return inRange(value, input, system) ? [value, value] : undefined;
}

/**
 * Reads the inputs shown in `system`, in order, by their rules: an input whose `visibleIf`
 * does not hold is hidden (`hidden`), any other goes to `shown` with its value, undefined
 * when it breaks its input's rules; `shown` answers whether to read on. Evaluation and a
 * submission's check read the same way.
 */
export function readInputs(
  compiled: CompiledDefinition,
  values: Values,
  system: UnitSystem,
  shown: (entry: CompiledInput, value: [number, unknown] | undefined) => boolean,
  hidden?: (entry: CompiledInput) => void,
): void {
  const chosen = new Map<string, unknown>();
  for (const entry of compiled.inputs) {
    const condition = entry.input.visibleIf;
    if (condition && chosen.get(condition.key) !== condition.equals) {
      hidden?.(entry);
      continue;
    }
    const value = read(entry, values, system);
    if (!shown(entry, value)) return;
    if (value) chosen.set(entry.input.key, value[1]);
  }
}

export function evaluate(compiled: CompiledDefinition, values: Values, system: UnitSystem): Outputs {
  const outputs: Outputs = {};
  const shown = compiled.systems.includes(system) ? system : (compiled.systems[0] as UnitSystem);
  const slots = new Float64Array(compiled.slots);
  let valid = true;
  try {
    readInputs(
      compiled,
      values,
      shown,
      (entry, value) => {
        if (value) slots[entry.slot] = value[0];
        else valid = false;
        return valid;
      },
      (entry) => {
        slots[entry.slot] = Number.NaN;
      },
    );
    if (compiled.imperial >= 0) slots[compiled.imperial] = shown === 'imperial' ? 1 : 0;
    for (const { slot, formula } of valid ? compiled.variables : []) {
      slots[slot] = evaluateFormula(formula.root, slots, compiled.tables);
    }
  } catch {
    valid = false;
  }
  for (const { key, formula } of compiled.outputs) {
    let value = Number.NaN;
    try {
      if (valid) value = evaluateFormula(formula.root, slots, compiled.tables);
    } catch {
      // Unreachable for a compiled formula; a bug here must cost one output, not the page.
    }
    outputs[key] = Number.isFinite(value) ? value : null;
  }
  return outputs;
}
