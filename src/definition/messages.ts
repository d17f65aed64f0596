/**
 * The texts of the definition validator, one home for each, so the server's 400 answer,
 * the dashboard's builder and `calc calculators validate` say the same. Formula texts are
 * in src/formula/errors.ts.
 */
import { LOCALES, MAX_TEXT_LENGTH } from './locales.ts';
import { LIMITS } from './limits.ts';

const quoted = (text: string) => `\`${text}\``;
const systemSuffix = (system: string) => (system === '' ? '' : ` (${system})`);

export const definitionMessages = {
  tooLarge: (bytes: number) => `a definition has at most ${LIMITS.bytes} bytes of JSON (64 KiB); this one has ${bytes}`,
  object: 'must be an object',
  list: 'must be a list',
  required: 'is required',
  unknownField: (name: string) => `unknown field ${quoted(name)}`,
  text: `must be text: a string, or one string per language with \`en\``,
  textLength: `must be 1 to ${MAX_TEXT_LENGTH} characters`,
  language: (name: string) => `${quoted(name)} is not one of the languages ${LOCALES.join(', ')}`,
  string: (max: number) => `must be a string of 1 to ${max} characters`,
  number: 'must be a number',
  boolean: 'must be true or false',
  positive: 'must be above 0',
  decimals: 'must be a whole number from 0 to 6',
  oneOf: (values: readonly string[]) => `must be one of ${values.map(quoted).join(', ')}`,
  count: (min: number, max: number) => (min === 0 ? `holds at most ${max} items` : `holds ${min} to ${max} items`),
  perSystem: 'must be a value for every unit system, or {"metric": …, "imperial": …}',
  key: 'must be a letter, then up to 39 letters, digits or _',
  id: 'must be lower-case letters, digits and dashes (at most 64), not starting with a dash',
  formula: 'must be a formula (text)',
  pair: 'must be a row [threshold, value]',
  unitSystemTwice: 'lists a unit system twice',
  // Across fields:
  duplicateKey: (key: string, first: string) => `${quoted(key)} is already the key of ${first}`,
  reserved: (key: string) => `${quoted(key)} is reserved for the displayed unit system`,
  functionName: (key: string) => `${quoted(key)} is the name of a function`,
  minAboveMax: (system: string) => `min is above max${systemSuffix(system)}`,
  outOfRange: (system: string) => `the default lies outside min to max${systemSuffix(system)}`,
  optionTwice: (value: string) => `the option value ${quoted(value)} appears twice`,
  notAnOption: 'must be one of the option values',
  visibleKey: 'must name an earlier select or toggle input',
  visibleOption: 'must be one of the option values of that select',
  visibleToggle: 'must be true or false, as that input is a toggle',
  visibleEquals: 'must be an option value (text) or true or false',
  aliasTarget: 'must name another number input, one that is not a display alias itself',
  aliasTwice: 'names an input that already has a display alias',
  aliasUnits: (system: string) =>
    `must convert to the unit of the input it stands for (kg and lb, cm and in)${systemSuffix(system)}`,
  aliasVisible: 'must be the same as on the input this alias stands for',
  bandsTwice: 'bands and bandsBy cannot both be given',
  bandsByKey: 'must name a select input',
  bandsMissing: (value: string) => `has no bands for the option ${quoted(value)}`,
  bandsExtra: (value: string) => `${quoted(value)} is not an option of that select`,
  upToOrder: "must be above the previous band's upTo",
  upToLast: 'only the last band may leave out upTo',
  primaryTwice: 'only one output may be primary',
  formatUnit: 'goes with the number style only: currency and percent bring their own sign',
  thresholdOrder: 'the threshold must be above the one of the row before',
  tableName: (name: string) => `${quoted(name)} is already the key of an input, variable or output`,
  // A name a formula cannot use, with the reason (they add " at <position>"):
  laterVariable: (name: string) => `${quoted(name)} comes later: a variable may use only inputs and earlier variables`,
  itself: (name: string) => `${quoted(name)} cannot use itself`,
  outputName: (name: string) => `${quoted(name)} is an output: formulas use inputs and variables`,
  aliasName: (name: string, canonical: string) =>
    `${quoted(name)} is the display form of ${quoted(canonical)}: formulas use ${quoted(canonical)}`,
  selectWithoutNumbers: (name: string) =>
    `${quoted(name)} is a select with an option that has no number, so formulas cannot use it`,
  imperialMissing: '`imperial` is known only when unitSystems includes imperial',
};
