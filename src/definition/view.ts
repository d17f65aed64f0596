/**
 * What a renderer needs besides the results: which inputs to show, which output leads,
 * how an output is formatted, and the band its displayed value falls in.
 */
import type { Values } from './evaluate.ts';
import type { Band, Definition, Input, Output } from './types.ts';

/** The format of an output without one. */
export const DEFAULT_FORMAT: NonNullable<Output['format']> = { style: 'number', decimals: 2 };

/**
 * The inputs a visitor sees, in order: an input that a display alias stands for (bmi's
 * `weightKg`) is there for pre-fill only; its alias (`weight`, in the shown units) is shown.
 */
export function displayedInputs(definition: Definition): Input[] {
  const aliased = new Set(
    definition.inputs.flatMap((input) => (input.kind === 'number' && input.aliasOf ? [input.aliasOf] : [])),
  );
  return definition.inputs.filter((input) => !aliased.has(input.key));
}

/** The output marked primary, else the first. */
export function primaryOutput(definition: Definition): Output {
  return definition.outputs.find((output) => output.primary) ?? (definition.outputs[0] as Output);
}

/** The value as displayed: rounded to the output's decimals (halves away from zero, as toFixed). */
export function displayedValue(output: Output, value: number): number {
  return Number(value.toFixed((output.format ?? DEFAULT_FORMAT).decimals));
}

/**
 * The band of `value`: the first whose `upTo` is at least the value as displayed (so the
 * label always agrees with the number shown), or the last one without `upTo`. With
 * `bandsBy`, the list for the select's current value in `values`.
 */
export function bandOf(output: Output, value: number, values: Values): Band | undefined {
  if (!Number.isFinite(value)) return undefined;
  let bands = output.bands;
  if (output.bandsBy) {
    const { key, bands: byValue } = output.bandsBy;
    const selected = Object.hasOwn(values, key) ? values[key] : undefined;
    // Own keys only: a value like "__proto__" must not reach Object.prototype.
    bands = typeof selected === 'string' && Object.hasOwn(byValue, selected) ? byValue[selected] : undefined;
  }
  const shown = displayedValue(output, value);
  return bands?.find((band) => band.upTo === undefined || shown <= band.upTo);
}
