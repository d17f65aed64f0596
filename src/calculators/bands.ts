import type { FieldValues, ResultBand, ResultDefinition } from './definition.ts';

/**
 * The label of the band that `value` falls in (min inclusive, max exclusive), or
 * undefined when the result has no bands or none matches. The value is first rounded
 * to `result.decimals`, so the label always agrees with the number displayed (a BMI of
 * 24.96 is shown as 25.0 and labelled Overweight). `values` chooses the band set for
 * results whose bands depend on a field (`bandsBy`, e.g. body fat by sex).
 */
export function bandFor(result: ResultDefinition, value: number, values: FieldValues = {}): string | undefined {
  return bandOf(result, value, values)?.label;
}

/** The band itself (label and tone), under the same rules as bandFor. */
export function bandOf(result: ResultDefinition, value: number, values: FieldValues = {}): ResultBand | undefined {
  if (!Number.isFinite(value)) return undefined;
  const shown = Number(value.toFixed(result.decimals));
  const band = bandsOf(result, values)?.find(
    (candidate) =>
      (candidate.min === undefined || shown >= candidate.min) && (candidate.max === undefined || shown < candidate.max),
  );
  return band;
}

function bandsOf(result: ResultDefinition, values: FieldValues): ResultBand[] | undefined {
  if (!result.bandsBy) return result.bands;
  const { key, bands } = result.bandsBy;
  const selected = Object.hasOwn(values, key) ? values[key] : undefined;
  // Own keys only: a value like "__proto__" must not reach Object.prototype.
  return typeof selected === 'string' && Object.hasOwn(bands, selected) ? bands[selected] : undefined;
}
