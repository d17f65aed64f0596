/**
 * The input values a visitor sent with their result, checked by the definition's input
 * rules exactly as evaluation reads them (docs/calculators.md, "Evaluation"): every
 * visible input must hold a valid value; a hidden input has none, whatever was sent. The
 * kept values are what the formulas used, under the canonical keys: a quantity sent under
 * its display alias is kept converted to its own unit.
 */
import type { CompiledDefinition } from './compile.ts';
import { readInputs, type Values } from './evaluate.ts';
import { perSystem } from './systems.ts';
import type { Input, UnitSystem } from './types.ts';

/** A value that breaks its input's rules, by field path (the `details` of a 400). */
export interface ValueProblem {
  field: string;
  message: string;
}

export interface CheckedValues {
  /** By canonical input key: numbers, option values, booleans of toggles. */
  values: Record<string, number | string | boolean>;
  problems: ValueProblem[];
}

/** What the rule of an input is, in the displayed system, for a refusal's message. */
function ruleOf(input: Input, alias: Input | undefined, system: UnitSystem): string {
  if (input.kind === 'select') return `must be one of ${input.options.map((o) => JSON.stringify(o.value)).join(', ')}`;
  if (input.kind === 'toggle') return 'must be true or false';
  const range = (i: Extract<Input, { kind: 'number' }>) => `${perSystem(i.min, system)} to ${perSystem(i.max, system)}`;
  return alias?.kind === 'number'
    ? `must be a number from ${range(input)}, or ${alias.key} a number from ${range(alias)} (${system})`
    : `must be a number from ${range(input)} (${system})`;
}

/** Checks `sent` against the inputs of `compiled` shown in `system` (which must be one of its systems). */
export function checkSubmittedValues(compiled: CompiledDefinition, sent: Values, system: UnitSystem): CheckedValues {
  const values: CheckedValues['values'] = {};
  const problems: ValueProblem[] = [];
  readInputs(compiled, sent, system, ({ input, alias }, value) => {
    if (value) values[input.key] = value[1] as number | string | boolean;
    else problems.push({ field: `inputs.${input.key}`, message: ruleOf(input, alias, system) });
    return true;
  });
  return { values, problems };
}
