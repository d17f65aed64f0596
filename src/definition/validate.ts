/**
 * Checks a definition as an owner saves it and lists every problem, not only the first:
 * `{path: "outputs[1].formula", message, position?}` (docs/calculators.md, "Validation").
 * The shape is checked by hand, not with TypeBox, so the dashboard's builder and the CLI
 * run this same code offline and in the browser without a schema compiler; schema.ts
 * describes the same shape, and a test holds the two together.
 */
import { convertUnit } from './units.ts';
import { CALC_ID_PATTERN } from './id.ts';
import { perSystem } from './systems.ts';
import { Refusal } from '../formula/errors.ts';
import { FUNCTIONS } from '../formula/functions.ts';
import { NAME_PATTERN } from '../formula/limits.ts';
import { explain } from '../formula/messages.ts';
import { compile, IMPERIAL } from './compile.ts';
import { LIMITS } from './limits.ts';
import { definitionMessages as m } from './messages.ts';
import { LOCALES, MAX_TEXT_LENGTH } from './locales.ts';
import { textIn } from './text.ts';
import type { Definition, NumberInput, Problem, UnitSystem } from './types.ts';

type Obj = Record<string, unknown>;
type Check = (value: unknown, path: string) => void;

const ID = new RegExp(CALC_ID_PATTERN);
const isObject = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);
const asObject = (value: unknown): Obj => (isObject(value) ? value : {});
const asList = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const field = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);
// Option values may be any text: a path names them in brackets unless they read as a key.
const member = (path: string, key: string) =>
  NAME_PATTERN.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;

/** Every problem of `value` as a definition; none when it is valid. */
export function validateDefinition(value: unknown): Problem[] {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    json = undefined;
  }
  if (!isObject(value) || json === undefined) return [{ path: '', message: m.object }];
  const bytes = new TextEncoder().encode(json).length;
  if (bytes > LIMITS.bytes) return [{ path: '', message: m.tooLarge(bytes) }];
  const problems: Problem[] = [];
  const add = (path: string, message: string): void => {
    problems.push({ path, message });
  };
  checkShape(value, add);
  checkMeaning(value, add);
  checkFormulas(value, problems);
  return problems;
}

// ---- Shape: the same rules as schema.ts, with a message at each place. ----

function checkShape(definition: Obj, add: (path: string, message: string) => void): void {
  const object =
    (spec: Record<string, [Check, boolean]>): Check =>
    (value, path) => {
      if (!isObject(value)) {
        add(path, m.object);
        return;
      }
      for (const key of Object.keys(value)) if (!Object.hasOwn(spec, key)) add(field(path, key), m.unknownField(key));
      for (const [key, [check, required]] of Object.entries(spec)) {
        if (value[key] !== undefined) check(value[key], field(path, key));
        else if (required) add(field(path, key), m.required);
      }
    };
  const list =
    (min: number, max: number, item: Check): Check =>
    (value, path) => {
      if (!Array.isArray(value)) {
        add(path, m.list);
        return;
      }
      if (value.length < min || value.length > max) add(path, m.count(min, max));
      value.forEach((entry, i) => {
        item(entry, `${path}[${i}]`);
      });
    };
  const string =
    (max: number, pattern?: RegExp, message = m.string(max)): Check =>
    (value, path) => {
      if (typeof value !== 'string' || value.length < 1 || value.length > max || (pattern && !pattern.test(value))) {
        add(path, message);
      }
    };
  const when =
    (wrong: (value: unknown) => boolean, message: string): Check =>
    (value, path) => {
      if (wrong(value)) add(path, message);
    };
  const number = when((value) => !isNumber(value), m.number);
  const boolean = when((value) => typeof value !== 'boolean', m.boolean);
  const oneOf = (values: readonly string[]) => when((value) => !values.includes(value as string), m.oneOf(values));
  // An object of named entries (tables, bands by option value).
  const record =
    (max: number, names: RegExp | undefined, entry: Check): Check =>
    (value, path) => {
      if (!isObject(value)) {
        add(path, m.object);
        return;
      }
      const keys = Object.keys(value);
      if (keys.length > max) add(path, m.count(0, max));
      for (const name of keys) {
        if (names && !names.test(name)) add(member(path, name), m.key);
        entry(value[name], member(path, name));
      }
    };
  const key = string(40, NAME_PATTERN, m.key);
  const plain = string(MAX_TEXT_LENGTH, undefined, m.textLength);
  const text: Check = (value, path) => {
    if (typeof value === 'string' || !isObject(value)) {
      if (typeof value === 'string') plain(value, path);
      else add(path, m.text);
      return;
    }
    for (const language of Object.keys(value)) {
      if (!(LOCALES as readonly string[]).includes(language)) add(field(path, language), m.language(language));
      else plain(value[language], field(path, language));
    }
    if (value.en === undefined) add(field(path, 'en'), m.required);
  };
  // One value, or {metric, imperial}; a text object without those keys is one text.
  const perSystem =
    (check: Check, isText = false): Check =>
    (value, path) => {
      const split = isObject(value) && (!isText || 'metric' in value || 'imperial' in value);
      if (split) object({ metric: [check, true], imperial: [check, true] })(value, path);
      else check(value, path);
    };
  const formula = when((value) => typeof value !== 'string', m.formula);
  const common: Record<string, [Check, boolean]> = {
    kind: [oneOf(['number', 'select', 'toggle']), true],
    key: [key, true],
    label: [text, true],
    help: [text, false],
    visibleIf: [
      object({
        key: [key, true],
        equals: [
          (value, path) => typeof value !== 'string' && typeof value !== 'boolean' && add(path, m.visibleToggle),
          true,
        ],
      }),
      false,
    ],
  };
  const kinds: Record<string, Record<string, [Check, boolean]>> = {
    number: {
      min: [perSystem(number), true],
      max: [perSystem(number), true],
      default: [perSystem(number), true],
      step: [when((value) => !isNumber(value) || value <= 0, m.positive), false],
      unit: [perSystem(text, true), false],
      aliasOf: [key, false],
    },
    select: {
      options: [
        list(
          1,
          LIMITS.options,
          object({ value: [string(LIMITS.optionValue), true], label: [text, true], number: [number, false] }),
        ),
        true,
      ],
      default: [when((value) => typeof value !== 'string', m.string(LIMITS.optionValue)), true],
    },
    toggle: { default: [boolean, true] },
  };
  const input: Check = (value, path) => {
    const kind =
      isObject(value) && typeof value.kind === 'string' && Object.hasOwn(kinds, value.kind) ? value.kind : '';
    // An unknown kind: check only what every input has, so the kind is the one complaint.
    object({ ...(kind ? {} : anyField(value)), ...common, ...(kinds[kind] ?? {}) })(value, path);
  };
  const band = object({
    upTo: [number, false],
    label: [text, true],
    tone: [oneOf(['good', 'caution', 'risk']), false],
  });
  const bands = list(1, LIMITS.bands, band);
  const output = object({
    key: [key, true],
    label: [text, true],
    formula: [formula, true],
    format: [
      object({
        style: [oneOf(['number', 'currency', 'percent']), true],
        decimals: [
          when((value) => !(Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 6), m.decimals),
          true,
        ],
        unit: [perSystem(text, true), false],
      }),
      false,
    ],
    bands: [bands, false],
    bandsBy: [
      object({
        key: [key, true],
        bands: [record(Number.POSITIVE_INFINITY, undefined, bands), true],
      }),
      false,
    ],
    primary: [boolean, false],
  });
  const row: Check = (value, path) => {
    if (!Array.isArray(value) || value.length !== 2 || !value.every(isNumber)) add(path, m.pair);
  };
  const tables = record(LIMITS.tables, NAME_PATTERN, list(1, LIMITS.tableRows, row));
  const unitSystems: Check = (value, path) => {
    list(1, 2, oneOf(['metric', 'imperial']))(value, path);
    if (Array.isArray(value) && new Set(value).size !== value.length) add(path, m.unitSystemTwice);
  };
  object({
    id: [string(64, ID, m.id), true],
    title: [text, true],
    description: [text, false],
    inputs: [list(1, LIMITS.inputs, input), true],
    variables: [list(0, LIMITS.variables, object({ key: [key, true], formula: [formula, true] })), false],
    outputs: [list(1, LIMITS.outputs, output), true],
    tables: [tables, false],
    unitSystems: [unitSystems, false],
  })(definition, '');
}

/** For an input of unknown kind: accept the fields of every kind, so only the kind is reported. */
function anyField(value: unknown): Record<string, [Check, boolean]> {
  return Object.fromEntries(Object.keys(asObject(value)).map((key) => [key, [() => {}, false] as [Check, boolean]]));
}

// ---- Meaning: rules across fields, on whatever parts are well-formed. ----

interface Keyed {
  key: string;
  path: string;
  kind: 'input' | 'variable' | 'output';
  value: Obj;
  index: number;
}

function keyedEntries(definition: Obj): Keyed[] {
  const entries: Keyed[] = [];
  for (const [list, kind] of [
    ['inputs', 'input'],
    ['variables', 'variable'],
    ['outputs', 'output'],
  ] as const) {
    asList(definition[list]).forEach((value, index) => {
      if (isObject(value) && typeof value.key === 'string') {
        entries.push({ key: value.key, path: `${list}[${index}]`, kind, value, index });
      }
    });
  }
  return entries;
}

function systemsOf(definition: Obj): UnitSystem[] {
  const systems = asList(definition.unitSystems).filter((s): s is UnitSystem => s === 'metric' || s === 'imperial');
  return systems.length > 0 ? systems : ['metric'];
}

const unitOf = (input: Obj, system: UnitSystem): string | undefined => {
  const unit = input.unit === undefined ? '' : perSystem(input.unit as NumberInput['unit'] & object, system);
  return typeof unit === 'string'
    ? unit
    : isObject(unit) && typeof unit.en === 'string'
      ? textIn(unit as { en: string }, 'en')
      : undefined;
};

function checkMeaning(definition: Obj, add: (path: string, message: string) => void): void {
  const entries = keyedEntries(definition);
  const firstPath = new Map<string, string>();
  for (const { key, path } of entries) {
    if (key === IMPERIAL) add(`${path}.key`, m.reserved(key));
    else if (FUNCTIONS.has(key)) add(`${path}.key`, m.functionName(key));
    const first = firstPath.get(key);
    if (first !== undefined) add(`${path}.key`, m.duplicateKey(key, first));
    else firstPath.set(key, path);
  }

  const systems = systemsOf(definition);
  const suffix = (system: UnitSystem) => (systems.length > 1 ? system : '');
  const inputs = entries.filter((entry) => entry.kind === 'input');
  const byKey = new Map(inputs.map((entry) => [entry.key, entry]));
  const aliased = new Set<string>();

  for (const { value: input, path, index } of inputs) {
    if (input.kind === 'number') {
      for (const system of systems) {
        const [min, max, fallback] = [input.min, input.max, input.default].map((v) =>
          v === undefined ? undefined : perSystem(v as number | { metric: number; imperial: number }, system),
        );
        if (!isNumber(min) || !isNumber(max)) continue;
        if (min > max) add(`${path}.min`, m.minAboveMax(suffix(system)));
        else if (isNumber(fallback) && (fallback < min || fallback > max))
          add(`${path}.default`, m.outOfRange(suffix(system)));
      }
      if (typeof input.aliasOf === 'string') checkAlias(input, path);
    }
    if (input.kind === 'select') {
      const seen = new Set<unknown>();
      asList(input.options).forEach((option, j) => {
        const optionValue = asObject(option).value;
        if (typeof optionValue !== 'string') return;
        if (seen.has(optionValue)) add(`${path}.options[${j}].value`, m.optionTwice(optionValue));
        seen.add(optionValue);
      });
      if (typeof input.default === 'string' && !seen.has(input.default)) add(`${path}.default`, m.notAnOption);
    }
    const condition = asObject(input.visibleIf);
    if (typeof condition.key === 'string') {
      const target = byKey.get(condition.key);
      if (!target || target.index >= index || (target.value.kind !== 'select' && target.value.kind !== 'toggle')) {
        add(`${path}.visibleIf.key`, m.visibleKey);
      } else if (target.value.kind === 'select' && !optionValues(target.value).includes(condition.equals as string)) {
        add(`${path}.visibleIf.equals`, m.visibleOption);
      } else if (target.value.kind === 'toggle' && typeof condition.equals !== 'boolean') {
        add(`${path}.visibleIf.equals`, m.visibleToggle);
      }
    }
  }

  function checkAlias(alias: Obj, path: string): void {
    const target = byKey.get(alias.aliasOf as string)?.value;
    if (!target || target === alias || target.kind !== 'number' || target.aliasOf !== undefined) {
      add(`${path}.aliasOf`, m.aliasTarget);
      return;
    }
    if (aliased.has(alias.aliasOf as string)) {
      add(`${path}.aliasOf`, m.aliasTwice);
      return;
    }
    aliased.add(alias.aliasOf as string);
    const inconvertible = systems.find((system) => {
      const [from, to] = [unitOf(alias, system), unitOf(target, system)];
      return from === undefined || to === undefined || convertUnit(1, from, to) === null;
    });
    if (inconvertible) add(`${path}.aliasOf`, m.aliasUnits(suffix(inconvertible)));
    const [a, b] = [asObject(alias.visibleIf), asObject(target.visibleIf)];
    if (a.key !== b.key || a.equals !== b.equals) add(`${path}.visibleIf`, m.aliasVisible);
  }

  let primary = false;
  for (const { value: output, path } of entries.filter((entry) => entry.kind === 'output')) {
    if (output.primary === true) {
      if (primary) add(`${path}.primary`, m.primaryTwice);
      primary = true;
    }
    const format = asObject(output.format);
    if (format.unit !== undefined && format.style !== 'number') add(`${path}.format.unit`, m.formatUnit);
    checkBands(output.bands, `${path}.bands`, add);
    if (output.bandsBy === undefined) continue;
    if (output.bands !== undefined) add(path, m.bandsTwice);
    const { key, bands } = asObject(output.bandsBy);
    const select = typeof key === 'string' ? byKey.get(key)?.value : undefined;
    if (select?.kind !== 'select') {
      add(`${path}.bandsBy.key`, m.bandsByKey);
      continue;
    }
    const byValue = asObject(bands);
    const values = optionValues(select);
    for (const value of values) if (!Object.hasOwn(byValue, value)) add(`${path}.bandsBy.bands`, m.bandsMissing(value));
    for (const [value, list] of Object.entries(byValue)) {
      const place = member(`${path}.bandsBy.bands`, value);
      if (!values.includes(value)) add(place, m.bandsExtra(value));
      else checkBands(list, place, add);
    }
  }

  for (const [name, rows] of Object.entries(asObject(definition.tables))) {
    const path = member('tables', name);
    if (name === IMPERIAL) add(path, m.reserved(name));
    else if (FUNCTIONS.has(name)) add(path, m.functionName(name));
    else if (firstPath.has(name)) add(path, m.tableName(name));
    asList(rows).forEach((row, j) => {
      const [threshold, previous] = [asList(row)[0], asList(asList(rows)[j - 1])[0]];
      if (j > 0 && isNumber(threshold) && isNumber(previous) && threshold <= previous)
        add(`${path}[${j}]`, m.thresholdOrder);
    });
  }
}

function optionValues(select: Obj): string[] {
  return asList(select.options).flatMap((option) => {
    const value = asObject(option).value;
    return typeof value === 'string' ? [value] : [];
  });
}

function checkBands(bands: unknown, path: string, add: (path: string, message: string) => void): void {
  const list = asList(bands);
  list.forEach((band, j) => {
    const upTo = asObject(band).upTo;
    if (upTo === undefined && j < list.length - 1) add(`${path}[${j}]`, m.upToLast);
    const previous = asObject(list[j - 1]).upTo;
    if (isNumber(upTo) && isNumber(previous) && upTo <= previous) add(`${path}[${j}].upTo`, m.upToOrder);
  });
}

// ---- Formulas: compiled as the evaluator compiles them, names explained. ----

function checkFormulas(definition: Obj, problems: Problem[]): void {
  const result = compile(wellFormed(definition));
  if (result.ok) return;
  const entries = keyedEntries(definition);
  const systems = systemsOf(definition);
  for (const { path, error } of result.problems) {
    const name = error.code === Refusal.UnknownName ? error.text : '';
    const variable = /^variables\[(\d+)\]/.exec(path);
    const own = variable ? Number(variable[1]) : Number.POSITIVE_INFINITY;
    const entry = name === '' ? undefined : entries.find((candidate) => candidate.key === name);
    let message: string | undefined;
    if (name === IMPERIAL && !systems.includes('imperial')) message = m.imperialMissing;
    else if (entry?.kind === 'variable') message = entry.index === own ? m.itself(name) : m.laterVariable(name);
    else if (entry?.kind === 'output') message = m.outputName(name);
    else if (entry?.kind === 'input' && typeof entry.value.aliasOf === 'string') {
      message = m.aliasName(name, entry.value.aliasOf);
    } else if (entry?.kind === 'input' && entry.value.kind === 'select') {
      // A select is left out of formulas' names only when an option has no number.
      message = m.selectWithoutNumbers(name);
    }
    problems.push({
      path,
      message: message === undefined ? explain(error) : `${message} at ${error.position}`,
      position: error.position,
    });
  }
}

/**
 * The parts of a loosely shaped definition that compile() reads, each well-formed or left
 * out, so formulas are checked even while other fields still have problems of their own.
 */
function wellFormed(definition: Obj): Definition {
  const keyed = (list: unknown) =>
    asList(list).filter((entry): entry is Obj => isObject(entry) && typeof entry.key === 'string');
  const inputs = keyed(definition.inputs)
    .filter((input) => input.kind === 'number' || input.kind === 'select' || input.kind === 'toggle')
    .map((input) => ({
      ...input,
      aliasOf: typeof input.aliasOf === 'string' ? input.aliasOf : undefined,
      options: asList(input.options).map((option) => {
        const number = asObject(option).number;
        return { ...asObject(option), number: isNumber(number) ? number : undefined };
      }),
    }));
  const tables = Object.fromEntries(
    Object.entries(asObject(definition.tables)).filter(
      ([, rows]) =>
        Array.isArray(rows) && rows.every((row) => Array.isArray(row) && row.length === 2 && row.every(isNumber)),
    ),
  );
  return {
    ...definition,
    inputs,
    variables: keyed(definition.variables),
    outputs: keyed(definition.outputs),
    tables,
    unitSystems: systemsOf(definition),
  } as unknown as Definition;
}
