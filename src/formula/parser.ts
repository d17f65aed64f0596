/**
 * Reads a formula into a tree (docs/calculators.md, "The formula language"), by
 * precedence climbing. Lowest to highest: `c ? a : b` (right to left), `||`, `&&`, the
 * comparisons (one per operand: `a < b < c` is refused), `+ -`, `* / %`, unary `- !`,
 * `^` (right to left, and tighter than unary minus: `-2^2` is -4, `2^-1` is 0.5). Limits
 * are checked as the tree grows: the node count, and the depth both before descending
 * (so no input recurses past the limit) and as each node is built.
 */
import { Kind, type Node } from './ast.ts';
import { FormulaError, Refusal } from './errors.ts';
import { FUNCTIONS } from './functions.ts';
import { lex, type Token } from './lexer.ts';
import { MAX_DEPTH, MAX_FORMULA_LENGTH, MAX_NODES } from './limits.ts';

const COMPARISON = 3;
const BINARY: ReadonlyMap<string, [precedence: number, kind: Kind]> = new Map([
  ['||', [1, Kind.Or]],
  ['&&', [2, Kind.And]],
  ['==', [COMPARISON, Kind.Equal]],
  ['!=', [COMPARISON, Kind.NotEqual]],
  ['<', [COMPARISON, Kind.Less]],
  ['<=', [COMPARISON, Kind.LessEqual]],
  ['>', [COMPARISON, Kind.Greater]],
  ['>=', [COMPARISON, Kind.GreaterEqual]],
  ['+', [4, Kind.Add]],
  ['-', [4, Kind.Subtract]],
  ['*', [5, Kind.Multiply]],
  ['/', [5, Kind.Divide]],
  ['%', [5, Kind.Remainder]],
]);

export interface Parsed {
  root: Node;
  /** How many nodes the tree has. */
  nodes: number;
}

/** The tree of `source`, or a FormulaError (thrown) saying what is wrong and where. */
export function parse(source: string): Parsed {
  if (source.length > MAX_FORMULA_LENGTH)
    throw new FormulaError(Refusal.TooLong, MAX_FORMULA_LENGTH, String(source.length));
  const tokens = lex(source);
  let at = 0;
  let count = 0;
  // Ancestors already certain for the operand being read: its depth is at least level + 1.
  let level = 0;
  let parentheses = 0;

  const peek = (): Token => tokens[at] as Token;
  const next = (): Token => tokens[at++] as Token;

  function node(k: Kind, p: number, a?: Node, b?: Node, c?: Node, x?: Node[], v = 0, s = ''): Node {
    if (++count > MAX_NODES) throw new FormulaError(Refusal.Nodes, p);
    let h = Math.max(a?.h ?? 0, b?.h ?? 0, c?.h ?? 0);
    for (const arg of x ?? []) h = Math.max(h, arg.h);
    if (++h > MAX_DEPTH) throw new FormulaError(Refusal.Depth, p);
    return { k, v, a, b, c, x, p, s, h };
  }

  /** Reads an operand that will sit below one more node. */
  function below<T>(p: number, read: () => T): T {
    if (++level >= MAX_DEPTH) throw new FormulaError(Refusal.Depth, p);
    const result = read();
    level--;
    return result;
  }

  function expect(t: string): Token {
    const token = next();
    if (token.t !== t) throw new FormulaError(Refusal.Expected, token.p, t, token.s);
    return token;
  }

  function expression(): Node {
    const condition = binary(1);
    const question = peek();
    if (question.t !== '?') return condition;
    next();
    const [yes, no] = below(question.p, () => {
      const taken = expression();
      expect(':');
      return [taken, expression()] as const;
    });
    return node(Kind.Cond, question.p, condition, yes, no);
  }

  function binary(least: number): Node {
    let left = unary();
    for (;;) {
      const op = peek();
      const entry = BINARY.get(op.t);
      if (!entry || entry[0] < least) return left;
      next();
      const right = below(op.p, () => binary(entry[0] + 1));
      if (entry[0] === COMPARISON && BINARY.get(peek().t)?.[0] === COMPARISON) {
        throw new FormulaError(Refusal.Chained, peek().p);
      }
      left = node(entry[1], op.p, left, right);
    }
  }

  function unary(): Node {
    const op = peek();
    if (op.t !== '-' && op.t !== '!') return power();
    next();
    const operand = below(op.p, unary);
    return node(op.t === '-' ? Kind.Negate : Kind.Not, op.p, operand);
  }

  function power(): Node {
    const base = primary();
    const op = peek();
    if (op.t !== '^') return base;
    next();
    // The exponent may carry its own sign (2^-1) and power (2^3^2 = 2^9).
    return node(Kind.Pow, op.p, base, below(op.p, unary));
  }

  function primary(): Node {
    const token = next();
    let result: Node;
    if (token.t === 'num') {
      result = node(Kind.Number, token.p, undefined, undefined, undefined, undefined, token.v);
    } else if (token.t === 'name') {
      result =
        peek().t === '('
          ? call(token)
          : node(Kind.Name, token.p, undefined, undefined, undefined, undefined, 0, token.s);
    } else if (token.t === '(') {
      if (++parentheses > MAX_DEPTH) throw new FormulaError(Refusal.Parentheses, token.p);
      result = expression();
      expect(')');
      parentheses--;
    } else {
      throw new FormulaError(Refusal.Unexpected, token.p, token.s);
    }
    if (peek().t === '(') throw new FormulaError(Refusal.Call, peek().p);
    return result;
  }

  function call(name: Token): Node {
    const fn = FUNCTIONS.get(name.s);
    if (!fn) throw new FormulaError(Refusal.NotFunction, name.p, name.s);
    next();
    const args: Node[] = [];
    if (peek().t !== ')') {
      do args.push(below(name.p, expression));
      while (peek().t === ',' && next());
    }
    expect(')');
    if (args.length < fn.min || args.length > fn.max) {
      throw new FormulaError(Refusal.Arity, name.p, name.s);
    }
    const [a, b, c] = args;
    return fn.kind === Kind.Min || fn.kind === Kind.Max
      ? node(fn.kind, name.p, undefined, undefined, undefined, args)
      : node(fn.kind, name.p, a, b, c);
  }

  if (peek().t === 'end') throw new FormulaError(Refusal.Empty, 0);
  const root = expression();
  const rest = peek();
  if (rest.t !== 'end') throw new FormulaError(Refusal.Unexpected, rest.p, rest.s);
  return { root, nodes: count };
}
