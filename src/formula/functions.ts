/**
 * The functions a formula can call: a fixed table, nothing else is callable. A Map, so
 * `constructor` or `__proto__` find nothing. Each entry: the node kind it compiles to and
 * its least and greatest number of arguments.
 */
import { Kind } from './ast.ts';

export interface FunctionEntry {
  kind: Kind;
  min: number;
  max: number;
}

const entry = (kind: Kind, min: number, max = min): FunctionEntry => ({ kind, min, max });
const ANY = Number.POSITIVE_INFINITY;

export const FUNCTIONS: ReadonlyMap<string, FunctionEntry> = new Map([
  ['min', entry(Kind.Min, 1, ANY)],
  ['max', entry(Kind.Max, 1, ANY)],
  ['round', entry(Kind.Round, 1, 2)],
  ['floor', entry(Kind.Floor, 1)],
  ['ceil', entry(Kind.Ceil, 1)],
  ['abs', entry(Kind.Abs, 1)],
  ['sqrt', entry(Kind.Sqrt, 1)],
  ['pow', entry(Kind.Pow, 2)],
  ['exp', entry(Kind.Exp, 1)],
  // exp(x) − 1 and ln(1 + x) without the loss of digits near 0 that the plain forms
  // suffer: compound growth at small rates (the compound-interest template) needs them.
  ['expm1', entry(Kind.Expm1, 1)],
  ['log1p', entry(Kind.Log1p, 1)],
  ['ln', entry(Kind.Ln, 1)],
  ['log10', entry(Kind.Log10, 1)],
  ['clamp', entry(Kind.Clamp, 3)],
  // `if` evaluates only the branch it takes, exactly like `c ? a : b`.
  ['if', entry(Kind.Cond, 3)],
  ['lookup', entry(Kind.Lookup, 2)],
  ['pmt', entry(Kind.Pmt, 3)],
]);
