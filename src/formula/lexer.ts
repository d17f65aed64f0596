/**
 * Splits a formula into tokens: numbers, names and operators. Anything else is refused
 * here with the reason, so quotes, `.`, `[`, `=`, `;` and comments never reach the parser.
 */
import { FormulaError, Refusal } from './errors.ts';
import { MAX_NAME_LENGTH } from './limits.ts';

export interface Token {
  /** 'num', 'name', 'end', or the operator itself ('+', '<=', '&&', …). */
  t: string;
  p: number;
  /** A number's value. */
  v: number;
  /** The token's text. */
  s: string;
}

const NUMBER = /[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
// What may not follow a number directly: `1.`, `1e`, `2x`, `0x1F`, `1_000`.
const NUMBER_TAIL = /[a-zA-Z0-9_.]*/y;
const NAME = /[a-zA-Z][a-zA-Z0-9_]*/y;
const TWO = new Set(['==', '!=', '<=', '>=', '&&', '||']);
const ONE = '+-*/%^(),?:!<>';
// Characters refused with their own explanation.
const REFUSED: Record<string, Refusal> = {
  '"': Refusal.Quote,
  "'": Refusal.Quote,
  '`': Refusal.Quote,
  '.': Refusal.Dot,
  '[': Refusal.Bracket,
  ']': Refusal.Bracket,
  '{': Refusal.Brace,
  '}': Refusal.Brace,
  '=': Refusal.Assign,
  ';': Refusal.Semicolon,
  '#': Refusal.Comment,
  '&': Refusal.Single,
  '|': Refusal.Single,
};

function match(pattern: RegExp, source: string, at: number): string {
  pattern.lastIndex = at;
  return pattern.exec(source)?.[0] ?? '';
}

export function lex(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i] as string;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
    } else if (c >= '0' && c <= '9') {
      const text = match(NUMBER, source, i);
      const bad = text + match(NUMBER_TAIL, source, i + text.length);
      const value = Number(text);
      if (bad !== text) throw new FormulaError(Refusal.Number, i, bad);
      // A literal too large for a double (1e999) is refused rather than becoming Infinity.
      if (!Number.isFinite(value)) throw new FormulaError(Refusal.TooLarge, i, text);
      tokens.push({ t: 'num', p: i, v: value, s: text });
      i += text.length;
    } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
      const name = match(NAME, source, i);
      if (name.length > MAX_NAME_LENGTH) throw new FormulaError(Refusal.NameLength, i, name);
      tokens.push({ t: 'name', p: i, v: 0, s: name });
      i += name.length;
    } else {
      const two = source.slice(i, i + 2);
      if (two === '//' || two === '/*') throw new FormulaError(Refusal.Comment, i);
      const op = TWO.has(two) ? two : ONE.includes(c) ? c : '';
      if (op === '') {
        const known = Object.hasOwn(REFUSED, c);
        const char = String.fromCodePoint(source.codePointAt(i) ?? 0);
        throw new FormulaError(known ? (REFUSED[c] as Refusal) : Refusal.Character, i, char);
      }
      tokens.push({ t: op, p: i, v: 0, s: op });
      i += op.length;
    }
  }
  tokens.push({ t: 'end', p: source.length, v: 0, s: '' });
  return tokens;
}
