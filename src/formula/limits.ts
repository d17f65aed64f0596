/**
 * The size of a formula and the names in it (docs/calculators.md, "Limits"). A formula is
 * checked against these while it is read, so an oversized one costs at most one pass over
 * its first 1,000 characters, and reading it never recurses deeper than the depth limit
 * (plus as many levels of parentheses).
 */
export const MAX_FORMULA_LENGTH = 1000;
/** Every node of the parse tree: numbers, names, operators, calls (a table name too). */
export const MAX_NODES = 200;
/** The height of the parse tree (a lone number is 1); also the most nested parentheses. */
export const MAX_DEPTH = 32;
/** A name: a letter, then letters, digits or `_`, this long at most. */
export const MAX_NAME_LENGTH = 40;
/** Keys of inputs, variables and outputs, table names, and the names formulas use. */
// Pure: a bundle that never reads it (the widget's) drops it.
export const NAME_PATTERN = /* @__PURE__ */ new RegExp(`^[a-zA-Z][a-zA-Z0-9_]{0,${MAX_NAME_LENGTH - 1}}$`);
