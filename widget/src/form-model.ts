/**
 * The state of one widget's form, free of DOM: which fields are shown, their values in
 * the displayed unit system, which ones the visitor touched, pre-fill and unit switching.
 */
import {
  perSystem,
  type CalculatorDefinition,
  type Field,
  type FieldValues,
  type NumberField,
  type UnitSystem,
} from '../../src/calculators/definition.ts';
import { convertDisplayed } from './convert.ts';

/**
 * Where a field's value came from, in rising precedence: the calculator's default, the
 * page's `data-values`, the webhook (through the load answer), the visitor.
 */
export type ValueSource = 'default' | 'embed' | 'webhook' | 'typed';

export interface FieldState {
  field: Field;
  /** The parsed value in the displayed unit system; null when empty or not a number. */
  value: number | string | null;
  /** The visitor typed or chose here: pre-fill must not overwrite it. */
  touched: boolean;
  source: ValueSource;
}

export interface FormModel {
  calculator: CalculatorDefinition;
  system: UnitSystem;
  fields: FieldState[];
}

export type Validity = 'valid' | 'empty' | 'out_of_range';

/** The unit a field is shown in ('' when it has none). */
export function unitOf(field: NumberField | { unit?: NumberField['unit'] }, system: UnitSystem): string {
  return field.unit === undefined ? '' : perSystem(field.unit, system);
}

/**
 * The fields a visitor sees: canonical keys that a display alias stands for (bmi
 * `weightKg`) exist only for pre-fill, so the alias (`weight`, in the shown units) is
 * rendered instead.
 */
export function displayedFields(calculator: CalculatorDefinition): Field[] {
  const canonical = new Set(
    calculator.fields.flatMap((field) => (field.kind === 'number' && field.aliasOf ? [field.aliasOf] : [])),
  );
  return calculator.fields.filter((field) => !canonical.has(field.key));
}

/** A display alias's help text names API keys, which means nothing to a visitor. */
export function visitorHelp(field: Field): string | undefined {
  return field.kind === 'number' && field.aliasOf ? undefined : field.help;
}

export function createFormModel(calculator: CalculatorDefinition, system: UnitSystem): FormModel {
  const chosen = calculator.unitSystems.includes(system) ? system : (calculator.unitSystems[0] ?? 'metric');
  return {
    calculator,
    system: chosen,
    fields: displayedFields(calculator).map((field) => ({
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

/** Whether a field is shown, given the current values (`visibleIf`). */
export function isVisible(model: FormModel, state: FieldState): boolean {
  const condition = state.field.kind === 'number' ? state.field.visibleIf : undefined;
  return !condition || stateOf(model, condition.key)?.value === condition.equals;
}

export function validityOf(state: FieldState, system: UnitSystem): Validity {
  if (state.value === null) return 'empty';
  if (state.field.kind === 'select' || typeof state.value !== 'number') return 'valid';
  const { min, max } = state.field;
  return state.value < perSystem(min, system) || state.value > perSystem(max, system) ? 'out_of_range' : 'valid';
}

/** Where each shown field's value came from, keyed as the fields. */
export function valueSources(model: FormModel): Record<string, ValueSource> {
  return Object.fromEntries(model.fields.map((state) => [state.field.key, state.touched ? 'typed' : state.source]));
}

/** The values of the visible fields, keyed as the calculator's compute expects. */
export function currentValues(model: FormModel): FieldValues {
  const values: FieldValues = {};
  for (const state of model.fields) {
    if (state.value !== null && isVisible(model, state)) values[state.field.key] = state.value;
  }
  return values;
}

/** The results for the current values, or null when an input is missing or invalid. */
export function computeResult(model: FormModel): Record<string, number> | null {
  try {
    return model.calculator.compute(currentValues(model), model.system);
  } catch {
    // A formula must never break the page; treat a throw as "no result".
    return null;
  }
}

/**
 * Switches the displayed unit system, converting every number to the new unit. A value
 * with no conversion (none in the catalogue today) falls back to the new default.
 * Returns the keys whose shown value changed.
 */
export function switchSystem(model: FormModel, system: UnitSystem): string[] {
  if (system === model.system || !model.calculator.unitSystems.includes(system)) return [];
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

function ownNumber(values: FieldValues, key: string): number | undefined {
  const value = Object.hasOwn(values, key) ? values[key] : undefined;
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * The pre-filled value for one shown field, in the displayed units. For a display alias
 * (bmi `weight`), the canonical key (`weightKg`, always kg) wins and is converted; the
 * alias key itself is already in the displayed unit system (docs/embedding.md, "bmi's four keys").
 */
function prefillFor(model: FormModel, field: Field, values: FieldValues): number | string | undefined {
  if (field.kind === 'select') {
    const value = Object.hasOwn(values, field.key) ? values[field.key] : undefined;
    return typeof value === 'string' && field.options.some((option) => option.value === value) ? value : undefined;
  }
  if (field.aliasOf) {
    const canonicalValue = ownNumber(values, field.aliasOf);
    const canonical = model.calculator.fields.find((candidate) => candidate.key === field.aliasOf);
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
 * displayed range, not an option) are ignored: the value before stays. Returns the
 * changed keys.
 */
export function applyPrefill(model: FormModel, values: FieldValues, source: 'embed' | 'webhook'): string[] {
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
