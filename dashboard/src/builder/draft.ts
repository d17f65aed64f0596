/**
 * The builder's draft: the definition as loosely shaped JSON while the owner edits it (a
 * number field may hold the text typed so far), changed by path without mutation, and
 * checked by the validator the server runs (src/definition/validate.ts), whose problems
 * name the same paths (`outputs[1].formula`).
 */
import { NAME_PATTERN } from '../../../src/formula/limits.ts';

export type Json = unknown;
export type Obj = Record<string, Json>;

/** A place in the draft: the validator's path and the keys that reach it. */
export interface Loc {
  path: string;
  keys: readonly (string | number)[];
}

export const ROOT: Loc = { path: '', keys: [] };

export const isObject = (value: Json): value is Obj =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
export const asObject = (value: Json): Obj => (isObject(value) ? value : {});
export const asList = (value: Json): Json[] => (Array.isArray(value) ? value : []);

/** The child of `loc` as the validator names it: `a.b`, `a[2]`, a table `tables.name` or `tables["odd name"]`. */
export function child(loc: Loc, key: string | number): Loc {
  let path: string;
  if (typeof key === 'number') path = `${loc.path}[${key}]`;
  else if (loc.path === '') path = key;
  else path = NAME_PATTERN.test(key) ? `${loc.path}.${key}` : `${loc.path}[${JSON.stringify(key)}]`;
  return { path, keys: [...loc.keys, key] };
}

export function getIn(value: Json, keys: readonly (string | number)[]): Json {
  let at = value;
  for (const key of keys) {
    if (typeof key === 'number') at = Array.isArray(at) ? at[key] : undefined;
    else at = isObject(at) && Object.hasOwn(at, key) ? at[key] : undefined;
  }
  return at;
}

/** A copy of `value` with `keys` set; `undefined` removes an object's field. */
export function setIn(value: Json, keys: readonly (string | number)[], next: Json): Json {
  const [key, ...rest] = keys;
  if (key === undefined) return next;
  if (typeof key === 'number') {
    const list = [...asList(value)];
    list[key] = setIn(list[key], rest, next);
    return list;
  }
  const object = { ...asObject(value) };
  const inner = setIn(object[key], rest, next);
  if (inner === undefined) delete object[key];
  else object[key] = inner;
  return object;
}

/** `list` with the entry at `from` moved to `to`. */
export function moved<T>(list: readonly T[], from: number, to: number): T[] {
  const copy = [...list];
  const [entry] = copy.splice(from, 1);
  if (entry !== undefined) copy.splice(to, 0, entry);
  return copy;
}

/** The id of the control (or group) for a path: problems link to it. */
export const idOf = (path: string): string => `f-${path.replace(/\s/g, '_')}`;

/** The paths from `path` up to the definition: the nearest one on the page shows its problem. */
export function pathsUp(path: string): string[] {
  const paths = [path];
  let rest = path;
  while (rest !== '') {
    const cut = Math.max(rest.lastIndexOf('.'), rest.lastIndexOf('['));
    rest = cut <= 0 ? '' : rest.slice(0, cut);
    paths.push(rest);
  }
  return paths;
}

const ORDINAL_LISTS: Record<string, string> = {
  inputs: 'Input',
  variables: 'Variable',
  outputs: 'Output',
  options: 'option',
  bands: 'band',
};

const FIELD_NAMES: Record<string, string> = {
  id: 'Id',
  title: 'Title',
  description: 'Description',
  unitSystems: 'Unit systems',
  kind: 'kind',
  key: 'key',
  label: 'label',
  help: 'help',
  visibleIf: 'shown only when',
  equals: 'value',
  min: 'min',
  max: 'max',
  default: 'default',
  step: 'step',
  unit: 'unit',
  aliasOf: 'display form of',
  value: 'value',
  number: 'number',
  formula: 'formula',
  format: 'format',
  style: 'style',
  decimals: 'decimals',
  upTo: 'up to',
  tone: 'tone',
  primary: 'primary',
  bandsBy: 'bands by option',
  tables: 'Tables',
};

/** A problem's place in words: `outputs[1].bands[0].upTo` is "Output 2, band 1, up to". */
export function placeName(path: string): string {
  if (path === '') return 'The calculator';
  const parts: string[] = [];
  const pattern = /([A-Za-z_]\w*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g;
  let previous = '';
  let table = false;
  for (const match of path.matchAll(pattern)) {
    const [, name, index, quoted] = match;
    if (name !== undefined) {
      if (table) {
        parts.push(`table ${name}`);
        table = false;
      } else if (name === 'tables') table = true;
      else if (!Object.hasOwn(ORDINAL_LISTS, name)) parts.push(FIELD_NAMES[name] ?? name);
      previous = name;
    } else if (index !== undefined) {
      const list = ORDINAL_LISTS[previous];
      parts.push(list ? `${list} ${Number(index) + 1}` : `row ${Number(index) + 1}`);
      previous = '';
    } else if (quoted !== undefined) {
      parts.push(`${table ? 'table' : 'option'} ${JSON.parse(quoted) as string}`);
      table = false;
    }
  }
  if (table) parts.push('Tables');
  const text = parts.join(', ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A number as typed: a number when it reads as one (`,` or `.` as the decimal sign), else the text itself. */
export function parseNumber(text: string): number | string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const value = Number(trimmed.replace(',', '.'));
  return /^[-+]?(\d|\.\d)/.test(trimmed) && Number.isFinite(value) ? value : trimmed;
}

/** A key not used yet: `base`, `base2`, `base3`, … */
export function freeKey(base: string, used: ReadonlySet<string>): string {
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) if (!used.has(`${base}${n}`)) return `${base}${n}`;
}

/** Every key of inputs, variables and outputs, and every table name. */
export function usedKeys(draft: Json): Set<string> {
  const keys = new Set<string>(Object.keys(asObject(asObject(draft).tables)));
  for (const list of ['inputs', 'variables', 'outputs']) {
    for (const entry of asList(asObject(draft)[list])) {
      const key = asObject(entry).key;
      if (typeof key === 'string') keys.add(key);
    }
  }
  return keys;
}

/** A new input of `kind`, keeping what every kind has (key, label, help, visibleIf). */
export function inputOfKind(kind: string, from: Obj): Obj {
  const common: Obj = { kind, key: from.key, label: from.label };
  if (from.help !== undefined) common.help = from.help;
  if (from.visibleIf !== undefined) common.visibleIf = from.visibleIf;
  if (kind === 'select')
    return {
      ...common,
      options: [
        { value: 'a', label: 'Option A', number: 1 },
        { value: 'b', label: 'Option B', number: 2 },
      ],
      default: 'a',
    };
  if (kind === 'toggle') return { ...common, default: false };
  return { ...common, min: 0, max: 100, default: 0 };
}

/** The draft as the owner would download it: JSON, indented. */
export const exportText = (draft: Json): string => `${JSON.stringify(draft, null, 2)}\n`;
