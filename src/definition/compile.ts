/**
 * A definition made ready to evaluate, once: every formula parsed, every name resolved to
 * a slot (the index of its value). Slots hold, in order, the inputs that have a value of
 * their own (a display alias has none: formulas use its canonical input), `imperial` when
 * the definition has that unit system, then the variables.
 */
import { compileFormula, type Formula } from '../formula/compile.ts';
import type { FormulaError } from '../formula/errors.ts';
import type { Table } from '../formula/evaluate.ts';
import type { Definition, Input, NumberInput, UnitSystem } from './types.ts';

/** The reserved name for the displayed unit system: 1 when imperial is shown, else 0. */
export const IMPERIAL = 'imperial';

export interface CompiledInput {
  input: Input;
  slot: number;
  /** The display alias standing for this (canonical) input, if any. */
  alias?: NumberInput;
}

export interface CompiledDefinition {
  definition: Definition;
  /** The unit systems offered, the first being the default. */
  systems: UnitSystem[];
  inputs: CompiledInput[];
  /** The slot of `imperial`, or -1. */
  imperial: number;
  variables: { slot: number; formula: Formula }[];
  outputs: { key: string; formula: Formula }[];
  tables: Table[];
  slots: number;
}

interface FormulaProblem {
  path: string;
  error: FormulaError;
}

export type CompileResult = { ok: true; compiled: CompiledDefinition } | { ok: false; problems: FormulaProblem[] };

/** Whether formulas may use a select: only when each of its options has a number. */
const usableInFormulas = (input: Input): boolean =>
  input.kind !== 'select' || input.options.every((option) => option.number !== undefined);

/** Compiles every formula of a valid definition; for any other, lists the formulas' problems. */
export function compile(definition: Definition): CompileResult {
  const systems: UnitSystem[] = definition.unitSystems ?? ['metric'];
  const names = new Map<string, number>();
  const aliases = new Map<string, NumberInput>();
  for (const input of definition.inputs) {
    if (input.kind === 'number' && input.aliasOf !== undefined) aliases.set(input.aliasOf, input);
  }
  const inputs: CompiledInput[] = [];
  for (const input of definition.inputs) {
    if (input.kind === 'number' && input.aliasOf !== undefined) continue;
    const slot = inputs.length;
    inputs.push({ input, slot, alias: aliases.get(input.key) });
    if (usableInFormulas(input)) names.set(input.key, slot);
  }
  let slots = inputs.length;
  const imperial = systems.includes('imperial') ? slots++ : -1;
  if (imperial >= 0) names.set(IMPERIAL, imperial);

  const tableNames = new Map<string, number>();
  const tables: Table[] = [];
  for (const [name, rows] of Object.entries(definition.tables ?? {})) {
    tableNames.set(name, tables.length);
    tables.push({ at: rows.map((row) => row[0]), to: rows.map((row) => row[1]) });
  }

  const problems: FormulaProblem[] = [];
  const compiled = (path: string, source: string): Formula | undefined => {
    // A formula that is not text is a problem of shape, reported by the validator.
    if (typeof source !== 'string') return undefined;
    const result = compileFormula(source, names, tableNames);
    if (result.ok) return result.formula;
    for (const error of result.errors) problems.push({ path, error });
    return undefined;
  };

  const variables: CompiledDefinition['variables'] = [];
  (definition.variables ?? []).forEach((variable, i) => {
    const formula = compiled(`variables[${i}].formula`, variable.formula);
    const slot = slots++;
    // Each variable becomes visible only to the formulas after it: no cycle can form.
    names.set(variable.key, slot);
    if (formula) variables.push({ slot, formula });
  });
  const outputs: CompiledDefinition['outputs'] = [];
  definition.outputs.forEach((output, i) => {
    const formula = compiled(`outputs[${i}].formula`, output.formula);
    if (formula) outputs.push({ key: output.key, formula });
  });

  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, compiled: { definition, systems, inputs, imperial, variables, outputs, tables, slots } };
}
