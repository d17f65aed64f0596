/**
 * Why a formula is refused, and where: `position` is the 0-based index of the character
 * the problem starts at (the formula's length when it ends too early), so an editor can
 * put the caret there. Only a code and its details travel here; messages.ts turns them
 * into the text people read, so the widget, which only needs to know that a formula
 * failed, carries none of it.
 */
export enum Refusal {
  TooLong,
  Empty,
  Character,
  Quote,
  Dot,
  Bracket,
  Brace,
  Assign,
  Semicolon,
  Comment,
  /** A lone `&` or `|`. */
  Single,
  Number,
  TooLarge,
  NameLength,
  Unexpected,
  Expected,
  Chained,
  Call,
  NotFunction,
  Arity,
  FunctionValue,
  UnknownName,
  TableValue,
  LookupTable,
  UnknownTable,
  Nodes,
  Depth,
  Parentheses,
}

export class FormulaError {
  constructor(
    readonly code: Refusal,
    readonly position: number,
    /** The name, token or text the refusal is about ('' when none). */
    readonly text = '',
    /** For Expected: the token found instead ('' at the end). */
    readonly found = '',
  ) {}
}
