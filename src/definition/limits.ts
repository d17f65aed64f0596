/** How much a definition may hold (docs/calculators.md, "Limits"). */
export const LIMITS = {
  /** Bytes of the definition as UTF-8 JSON. */
  bytes: 64 * 1024,
  inputs: 50,
  variables: 50,
  outputs: 20,
  options: 50,
  optionValue: 100,
  bands: 20,
  tables: 20,
  tableRows: 200,
} as const;
