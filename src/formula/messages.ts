/**
 * The text of each refusal, as the server's 400 answers, the dashboard's builder and the
 * CLI show it: "unknown name `wieght` at 4". Not imported by the widget.
 */
import { type FormulaError, Refusal } from './errors.ts';
import { FUNCTIONS } from './functions.ts';
import { MAX_DEPTH, MAX_FORMULA_LENGTH, MAX_NAME_LENGTH, MAX_NODES } from './limits.ts';

const quoted = (text: string) => `\`${text}\``;
const codePoint = (char: string) => `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

function arity(name: string): string {
  const { min, max } = FUNCTIONS.get(name) ?? { min: 0, max: 0 };
  const count = (n: number) => `${n} argument${n === 1 ? '' : 's'}`;
  if (max === Number.POSITIVE_INFINITY) return `${quoted(name)} needs at least ${count(min)}`;
  return `${quoted(name)} takes ${min === max ? count(min) : `${min} or ${count(max)}`}`;
}

const TEXTS: Record<Refusal, (text: string, found: string) => string> = {
  [Refusal.TooLong]: (length) => `a formula has at most ${MAX_FORMULA_LENGTH} characters, this one has ${length}`,
  [Refusal.Empty]: () => 'the formula is empty',
  [Refusal.Character]: (char) => `unexpected character ${quoted(char)} (${codePoint(char)})`,
  [Refusal.Quote]: () => 'quotes are not allowed: a formula works with numbers only',
  [Refusal.Dot]: () => '`.` is not allowed here: a number starts with a digit (0.5), and nothing has members',
  [Refusal.Bracket]: () => '`[` and `]` are not allowed: nothing can be indexed',
  [Refusal.Brace]: () => '`{` and `}` are not allowed',
  [Refusal.Assign]: () => '`=` is not allowed: a formula cannot assign; compare with `==`',
  [Refusal.Semicolon]: () => '`;` is not allowed: a formula is one expression',
  [Refusal.Comment]: () => 'comments are not allowed',
  [Refusal.Single]: (op) => `${quoted(op)} is not an operator: use ${quoted(op + op)}`,
  [Refusal.Number]: (text) => `malformed number ${quoted(text)}`,
  [Refusal.TooLarge]: (text) => `${quoted(text)} is too large for a number`,
  [Refusal.NameLength]: (name) =>
    `the name ${quoted(`${name.slice(0, 12)}…`)} is longer than ${MAX_NAME_LENGTH} characters`,
  [Refusal.Unexpected]: (token) => (token === '' ? 'unexpected end of the formula' : `unexpected ${quoted(token)}`),
  [Refusal.Expected]: (what, found) =>
    `expected ${quoted(what)} but found ${found === '' ? 'the end of the formula' : quoted(found)}`,
  [Refusal.Chained]: () => 'comparisons cannot be chained: write `a < b && b < c`',
  [Refusal.Call]: () => 'only a function can be called, by its name: `(` cannot follow a value',
  [Refusal.NotFunction]: (name) => `${quoted(name)} is not a function`,
  [Refusal.Arity]: arity,
  [Refusal.FunctionValue]: (name) => `${quoted(name)} is a function: call it, as in ${quoted(`${name}(x)`)}`,
  [Refusal.UnknownName]: (name) => `unknown name ${quoted(name)}`,
  [Refusal.TableValue]: (name) => `${quoted(name)} is a table: use it as the second argument of lookup`,
  [Refusal.LookupTable]: () => 'the second argument of lookup must be the name of a table',
  [Refusal.UnknownTable]: (name) => `unknown table ${quoted(name)}`,
  [Refusal.Nodes]: () => `a formula has at most ${MAX_NODES} parts (numbers, names, operators and calls)`,
  [Refusal.Depth]: () => `a formula is nested at most ${MAX_DEPTH} levels deep`,
  [Refusal.Parentheses]: () => `parentheses are nested at most ${MAX_DEPTH} deep`,
};

/** What is wrong and where: "unknown name `wieght` at 4". */
export function explain(error: FormulaError): string {
  return `${TEXTS[error.code](error.text, error.found)} at ${error.position}`;
}
