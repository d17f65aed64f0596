/**
 * The state of one widget's form, free of DOM: which inputs of the definition are shown,
 * their values in the displayed unit system, which ones the visitor touched, pre-fill,
 * unit switching and the results (src/definition/, the same evaluator as the server's).
 */
import { type CompiledDefinition, compile } from '../../src/definition/compile.ts';
import { evaluate, type Outputs } from '../../src/definition/evaluate.ts';
import { perSystem, unitIn } from '../../src/definition/systems.ts';
import type { Definition, Input, InputValues, UnitSystem } from '../../src/definition/types.ts';
import { displayedInputs } from '../../src/definition/view.ts';
import { convertDisplayed } from './convert.ts';

/**
 * Where a field's value came from, in rising precedence: the calculator's default, the
 * page's `data-values`, the webhook (through the load answer), the visitor.
 */
export type ValueSource = 'default' | 'embed' | 'webhook' | 'typed';

export interface FieldState {
  field: Input;
  /** The value in the displayed unit system; null when empty or not a number. */
  value: number | string | boolean | null;
  /** The visitor typed or chose here: pre-fill must not overwrite it. */
  touched: boolean;
  source: ValueSource;
}

export interface FormModel {
  definition: Definition;
  compiled: CompiledDefinition;
  system: UnitSystem;
  fields: FieldState[];
}

export type Validity = 'valid' | 'empty' | 'out_of_range';

/** The unit a number input is entered in, as conversions name it ('kg'; '' when it has none). */
export const unitOf = unitIn;

/**
 * The inputs a visitor sees: canonical keys that a display alias stands for (bmi
 * `weightKg`) exist only for pre-fill, so the alias (`weight`, in the shown units) is
 * rendered instead.
 */
export const displayedFields = displayedInputs;

/** A display alias's help text names API keys, which means nothing to a visitor. */
export function visitorHelp(field: Input): Input['help'] {
  return field.kind === 'number' && field.aliasOf ? undefined : field.help;
}

/** The form of `definition` with its defaults; throws on a definition whose formulas do not compile. */
export function createFormModel(definition: Definition, system: UnitSystem): FormModel {
  const result = compile(definition);
  // The server refuses such a definition; one that arrives anyway is not shown.
  if (!result.ok) throw new Error('invalid definition');
  const { compiled } = result;
  const chosen = compiled.systems.includes(system) ? system : (compiled.systems[0] as UnitSystem);
  return {
    definition,
    compiled,
    system: chosen,
    fields: displayedFields(definition).map((field) => ({
      field,
      value: field.kind === 'number' ? perSystem(field.default, chosen) : field.default,
      touched: false,
      source: 'default' as const,
    })),
  };
}

export function stateOf(model: FormModel, key: string): FieldState | undefined {
  return model.fields.find((state) => state.field.key === key);
}

/**
 * Whether a field is shown (`visibleIf`): its select or toggle has the value, and is shown
 * itself. Only an earlier field counts, so a malformed definition cannot loop.
 */
export function isVisible(model: FormModel, state: FieldState): boolean {
  const condition = state.field.visibleIf;
  if (!condition) return true;
  const controller = stateOf(model, condition.key);
  return (
    controller !== undefined &&
    model.fields.indexOf(controller) < model.fields.indexOf(state) &&
    controller.value === condition.equals &&
    isVisible(model, controller)
  );
}

/** A number against its range; a select's or toggle's value is one of its own (pre-fill checks it). */
export function validityOf(state: FieldState, system: UnitSystem): Validity {
  const { field, value } = state;
  if (value === null) return 'empty';
  if (field.kind !== 'number' || typeof value !== 'number') return 'valid';
  return value < perSystem(field.min, system) || value > perSystem(field.max, system) ? 'out_of_range' : 'valid';
}

/** Where each shown field's value came from, keyed as the fields. */
export function valueSources(model: FormModel): Record<string, ValueSource> {
  return Object.fromEntries(model.fields.map((state) => [state.field.key, state.touched ? 'typed' : state.source]));
}

/** The values of the visible fields, keyed as the definition's inputs. */
export function currentValues(model: FormModel): InputValues {
  const values: InputValues = {};
  for (const state of model.fields) {
    if (state.value !== null && isVisible(model, state)) values[state.field.key] = state.value;
  }
  return values;
}

/**
 * The outputs for the current values (null for one that is not a finite number), or null
 * when there is no result at all: an input missing or invalid, so every output is null.
 */
export function computeResult(model: FormModel): Outputs | null {
  const outputs = evaluate(model.compiled, currentValues(model), model.system);
  for (const key in outputs) if (outputs[key] !== null) return outputs;
  return null;
}

/**
 * Switches the displayed unit system, converting every number to the new unit. A value
 * with no conversion falls back to the new default. Returns the keys whose shown value changed.
 */
export function switchSystem(model: FormModel, system: UnitSystem): string[] {
  if (system === model.system || !model.compiled.systems.includes(system)) return [];
  const changed: string[] = [];
  for (const state of model.fields) {
    const field = state.field;
    if (field.kind !== 'number') continue;
    const from = unitOf(field, model.system);
    const to = unitOf(field, system);
    if (from === to) continue;
    const converted = typeof state.value === 'number' ? convertDisplayed(state.value, from, to) : null;
    if (state.value !== null) state.value = converted ?? perSystem(field.default, system);
    changed.push(field.key);
  }
  model.system = system;
  return changed;
}

const own = (values: Readonly<Record<string, unknown>>, key: string): unknown =>
  Object.hasOwn(values, key) ? values[key] : undefined;

function ownNumber(values: Readonly<Record<string, unknown>>, key: string): number | undefined {
  const value = own(values, key);
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * The pre-filled value for one shown field, in the displayed units, under the rules of
 * pre-fill (docs/calculators.md): a select takes an option value, a toggle a boolean, a
 * number a finite number. For a display alias (bmi `weight`), the canonical key
 * (`weightKg`, always kg) wins and is converted; the alias key itself is already in the
 * displayed unit system (docs/embedding.md, "bmi's four keys").
 */
function prefillFor(model: FormModel, field: Input, values: Readonly<Record<string, unknown>>) {
  const value = own(values, field.key);
  if (field.kind === 'select') {
    return typeof value === 'string' && field.options.some((option) => option.value === value) ? value : undefined;
  }
  if (field.kind === 'toggle') return typeof value === 'boolean' ? value : undefined;
  if (field.aliasOf) {
    const canonicalValue = ownNumber(values, field.aliasOf);
    const canonical = model.definition.inputs.find((candidate) => candidate.key === field.aliasOf);
    if (canonicalValue !== undefined && canonical?.kind === 'number') {
      return (
        convertDisplayed(canonicalValue, unitOf(canonical, model.system), unitOf(field, model.system)) ?? undefined
      );
    }
  }
  return ownNumber(values, field.key);
}

/**
 * Applies pre-filled values (the page's or the load answer's) to the fields the visitor
 * has not touched, recording their source. Values failing a field's rules (outside the
 * displayed range, not an option, not a boolean) are ignored: the value before stays.
 * Returns the changed keys.
 */
export function applyPrefill(
  model: FormModel,
  values: Readonly<Record<string, unknown>>,
  source: 'embed' | 'webhook',
): string[] {
  const changed: string[] = [];
  for (const state of model.fields) {
    if (state.touched) continue;
    const value = prefillFor(model, state.field, values);
    if (value === undefined) continue;
    const candidate: FieldState = { ...state, value };
    if (validityOf(candidate, model.system) !== 'valid') continue;
    state.value = value;
    state.source = source;
    changed.push(state.field.key);
  }
  return changed;
}
