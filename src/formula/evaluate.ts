/**
 * Runs a compiled formula: a plain walk of its tree over an array of values, indexed as
 * the names were resolved. Booleans are 1 and 0; any value other than 0 counts as true.
 *
 * Not a number: a value may be NaN (an input that has no value, say), and every result
 * that is not finite (1/0, ln(0), an overflow) becomes NaN at once, so it stays NaN up to
 * the output (where it shows as "—") instead of turning back into a number (1/(1/0)).
 * Comparisons and `&& || !` with NaN give NaN too; only a branch that `?:`, `if`, `&&` or
 * `||` does not take may hold one without harm.
 */
import { Kind, type Node } from './ast.ts';

/** A step table for lookup: thresholds strictly ascending, and the value of each row. */
export interface Table {
  at: readonly number[];
  to: readonly number[];
}

/** The value itself when finite, else NaN. */
const finite = (value: number): number => (value - value === 0 ? value : Number.NaN);
const missing = Number.isNaN;
const bool = (value: boolean): number => (value ? 1 : 0);

/** The formula's value for `slots` (values by slot index) and `tables` (by table index). */
export function evaluate(n: Node, slots: ArrayLike<number>, tables: readonly Table[]): number {
  // Children are passed on explicitly: a closure here would be made once per node run.
  switch (n.k) {
    case Kind.Number:
      return n.v;
    case Kind.Slot:
      return slots[n.v] as number;
    case Kind.Negate:
      return -evaluate(n.a as Node, slots, tables);
    case Kind.Not: {
      const a = evaluate(n.a as Node, slots, tables);
      return missing(a) ? a : bool(a === 0);
    }
    case Kind.Add:
      return finite(evaluate(n.a as Node, slots, tables) + evaluate(n.b as Node, slots, tables));
    case Kind.Subtract:
      return finite(evaluate(n.a as Node, slots, tables) - evaluate(n.b as Node, slots, tables));
    case Kind.Multiply:
      return finite(evaluate(n.a as Node, slots, tables) * evaluate(n.b as Node, slots, tables));
    case Kind.Divide:
      return finite(evaluate(n.a as Node, slots, tables) / evaluate(n.b as Node, slots, tables));
    case Kind.Remainder:
      return evaluate(n.a as Node, slots, tables) % evaluate(n.b as Node, slots, tables);
    case Kind.Pow: {
      // NaN^0 is 1 in JavaScript: a missing value must not become a number.
      const a = evaluate(n.a as Node, slots, tables);
      return missing(a) ? a : finite(a ** evaluate(n.b as Node, slots, tables));
    }
    case Kind.And: {
      const a = evaluate(n.a as Node, slots, tables);
      if (missing(a)) return a;
      if (a === 0) return 0;
      const b = evaluate(n.b as Node, slots, tables);
      return missing(b) ? b : bool(b !== 0);
    }
    case Kind.Or: {
      const a = evaluate(n.a as Node, slots, tables);
      if (missing(a)) return a;
      if (a !== 0) return 1;
      const b = evaluate(n.b as Node, slots, tables);
      return missing(b) ? b : bool(b !== 0);
    }
    case Kind.Cond: {
      const c = evaluate(n.a as Node, slots, tables);
      return missing(c) ? c : c !== 0 ? evaluate(n.b as Node, slots, tables) : evaluate(n.c as Node, slots, tables);
    }
    case Kind.Min:
    case Kind.Max: {
      let result = n.k === Kind.Min ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
      for (const arg of n.x as Node[])
        result =
          n.k === Kind.Min
            ? Math.min(result, evaluate(arg, slots, tables))
            : Math.max(result, evaluate(arg, slots, tables));
      return result;
    }
    case Kind.Round: {
      // Halves round away from zero, on the number's exact value: as toFixed, so a rounded
      // result equals what the widget displays with that many decimals.
      const x = evaluate(n.a as Node, slots, tables);
      const d = n.b ? evaluate(n.b as Node, slots, tables) : 0;
      return d >= 0 && d <= 20 && Math.floor(d) === d ? Number(x.toFixed(d)) : Number.NaN;
    }
    case Kind.Floor:
      return Math.floor(evaluate(n.a as Node, slots, tables));
    case Kind.Ceil:
      return Math.ceil(evaluate(n.a as Node, slots, tables));
    case Kind.Abs:
      return Math.abs(evaluate(n.a as Node, slots, tables));
    case Kind.Sqrt:
      return Math.sqrt(evaluate(n.a as Node, slots, tables));
    case Kind.Exp:
      return finite(Math.exp(evaluate(n.a as Node, slots, tables)));
    case Kind.Expm1:
      return finite(Math.expm1(evaluate(n.a as Node, slots, tables)));
    case Kind.Log1p:
      return finite(Math.log1p(evaluate(n.a as Node, slots, tables)));
    case Kind.Ln:
      return finite(Math.log(evaluate(n.a as Node, slots, tables)));
    case Kind.Log10:
      return finite(Math.log10(evaluate(n.a as Node, slots, tables)));
    case Kind.Clamp: {
      const x = evaluate(n.a as Node, slots, tables);
      const lo = evaluate(n.b as Node, slots, tables);
      const hi = evaluate(n.c as Node, slots, tables);
      return lo > hi ? Number.NaN : Math.min(Math.max(x, lo), hi);
    }
    case Kind.Lookup:
      return lookup(tables[n.v] as Table, evaluate(n.a as Node, slots, tables));
    case Kind.Pmt:
      return pmt(
        evaluate(n.a as Node, slots, tables),
        evaluate(n.b as Node, slots, tables),
        evaluate(n.c as Node, slots, tables),
      );
    default:
      // Comparisons; a NaN on either side makes the answer NaN, not "false".
      return compare(n.k, evaluate(n.a as Node, slots, tables), evaluate(n.b as Node, slots, tables));
  }
}

function compare(kind: Kind, a: number, b: number): number {
  if (missing(a) || missing(b)) return Number.NaN;
  switch (kind) {
    case Kind.Equal:
      return bool(a === b);
    case Kind.NotEqual:
      return bool(a !== b);
    case Kind.Less:
      return bool(a < b);
    case Kind.LessEqual:
      return bool(a <= b);
    case Kind.Greater:
      return bool(a > b);
    case Kind.GreaterEqual:
      return bool(a >= b);
    default:
      return Number.NaN;
  }
}

/** The value of the last row whose threshold is ≤ x; NaN below the first row. */
function lookup(table: Table, x: number): number {
  let low = 0;
  let high = table.at.length - 1;
  if (!(x >= (table.at[0] as number))) return Number.NaN;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((table.at[mid] as number) <= x) low = mid;
    else high = mid - 1;
  }
  return table.to[low] as number;
}

/**
 * The payment per period that repays `pv` over `n` periods at `rate` per period, paid at
 * the end of each: pv·r / (1 − (1 + r)^−n), and pv/n at 0 %. The denominator is computed
 * as −expm1(−n·log1p(r)), which keeps its digits for tiny rates. NaN unless n > 0 and
 * rate > −1.
 */
function pmt(rate: number, n: number, pv: number): number {
  if (!(n > 0 && rate > -1)) return Number.NaN;
  return finite(rate === 0 ? pv / n : (pv * rate) / -Math.expm1(-n * Math.log1p(rate)));
}
