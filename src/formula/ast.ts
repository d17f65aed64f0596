/**
 * The parse tree. Every node has the same fields (one object shape, which keeps the
 * interpreter's property reads fast); a node's kind says which of them it uses.
 */
export enum Kind {
  Number,
  /** A name not yet resolved (`s` holds it); resolution turns it into a Slot. */
  Name,
  /** A resolved name: `v` is the index of its value. */
  Slot,
  Negate,
  Not,
  Add,
  Subtract,
  Multiply,
  Divide,
  Remainder,
  Pow,
  Equal,
  NotEqual,
  Less,
  LessEqual,
  Greater,
  GreaterEqual,
  And,
  Or,
  /** `a ? b : c` and `if(a, b, c)`. */
  Cond,
  Min,
  Max,
  Round,
  Floor,
  Ceil,
  Abs,
  Sqrt,
  Exp,
  Expm1,
  Ln,
  Log1p,
  Log10,
  Clamp,
  /** `lookup(a, table)`: `b` is the table's name node, `v` its index once resolved. */
  Lookup,
  Pmt,
}

export interface Node {
  k: Kind;
  /** A number's value, a slot's or table's index. */
  v: number;
  a: Node | undefined;
  b: Node | undefined;
  c: Node | undefined;
  /** Arguments of min and max. */
  x: Node[] | undefined;
  /** Where the node starts in the formula (0-based). */
  p: number;
  /** A name's text. */
  s: string;
  /** The height of the subtree (a leaf is 1). */
  h: number;
}
