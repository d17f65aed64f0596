/**
 * The widget's own texts, in English. With the catalogue templates' labels, units, help and
 * band names they are the keys of every language pack (widget/i18n/*.json): a pack maps the
 * English text to its translation, so a missing entry shows English, never a key.
 * `{name}` marks a value filled in at run time.
 */
export const TEXTS = {
  units: 'Units',
  metric: 'Metric',
  imperial: 'Imperial',
  range: 'Enter a number from {min} to {max}.',
  unavailable: 'Calculator unavailable',
  loading: 'Loading the calculator…',
  perUnit: 'per {unit}',
} as const;
