/**
 * A formula made ready to run: parsed once, and every name resolved to the index of its
 * value (a slot) or of its table, so evaluating never looks a name up. Names resolve only
 * against the Maps the caller passes: `constructor` or `__proto__` are unknown unless
 * declared.
 */
import { Kind, type Node } from './ast.ts';
import { FormulaError, Refusal } from './errors.ts';
import { FUNCTIONS } from './functions.ts';
import { parse } from './parser.ts';

export interface Formula {
  root: Node;
  nodes: number;
  /** The height of the tree. */
  depth: number;
}

export type Compiled = { ok: true; formula: Formula } | { ok: false; errors: FormulaError[] };

const NO_TABLES: ReadonlyMap<string, number> = new Map();

/**
 * Compiles `source` with `names` (name → slot index) and `tables` (name → table index).
 * Syntax stops at the first error; name errors are all listed.
 */
export function compileFormula(
  source: string,
  names: ReadonlyMap<string, number>,
  tables: ReadonlyMap<string, number> = NO_TABLES,
): Compiled {
  let root: Node;
  let nodes: number;
  try {
    ({ root, nodes } = parse(source));
  } catch (error) {
    if (error instanceof FormulaError) return { ok: false, errors: [error] };
    throw error;
  }
  const errors: FormulaError[] = [];

  function resolve(n: Node | undefined): void {
    if (!n) return;
    if (n.k === Kind.Name) {
      const slot = names.get(n.s);
      if (slot !== undefined) {
        n.k = Kind.Slot;
        n.v = slot;
      } else {
        const code = tables.has(n.s)
          ? Refusal.TableValue
          : FUNCTIONS.has(n.s)
            ? Refusal.FunctionValue
            : Refusal.UnknownName;
        errors.push(new FormulaError(code, n.p, n.s));
      }
      return;
    }
    resolve(n.a);
    if (n.k === Kind.Lookup) {
      const table = n.b as Node;
      const index = table.k === Kind.Name ? tables.get(table.s) : undefined;
      if (index !== undefined) n.v = index;
      else if (table.k === Kind.Name && !names.has(table.s)) {
        errors.push(new FormulaError(Refusal.UnknownTable, table.p, table.s));
      } else errors.push(new FormulaError(Refusal.LookupTable, table.p));
      return;
    }
    resolve(n.b);
    resolve(n.c);
    for (const arg of n.x ?? []) resolve(arg);
  }

  resolve(root);
  return errors.length > 0 ? { ok: false, errors } : { ok: true, formula: { root, nodes, depth: root.h } };
}
