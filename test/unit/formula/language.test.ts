/**
 * The formula language against its table (test/fixtures/formula-cases.ts): exact values,
 * and every refusal with its position and text.
 */
import { describe, expect, test } from 'bun:test';
import { compileFormula, type Formula } from '../../../src/formula/compile.ts';
import { evaluate, type Table } from '../../../src/formula/evaluate.ts';
import { explain } from '../../../src/formula/messages.ts';
import { type Names, names, refusals, results, tables } from '../../fixtures/formula-cases.ts';

const tableIndex = new Map(Object.keys(tables).map((name, i) => [name, i]));
const tableList: Table[] = Object.values(tables).map((rows) => ({
  at: rows.map((row) => row[0]),
  to: rows.map((row) => row[1]),
}));

function compileWith(formula: string, declared: Names = names) {
  const slots = new Map(Object.keys(declared).map((name, i) => [name, i]));
  const values = Object.values(declared).map((value) => value ?? Number.NaN);
  return { compiled: compileFormula(formula, slots, tableIndex), values };
}

/** The value as the table writes it: null for not a number. */
function resultOf(formula: string, declared?: Names): number | null {
  const { compiled, values } = compileWith(formula, declared);
  if (!compiled.ok) throw new Error(`${formula}: ${compiled.errors.map(explain).join('; ')}`);
  const value = evaluate(compiled.formula.root, values, tableList);
  return Number.isNaN(value) ? null : value;
}

const label = (formula: string) =>
  formula.length > 60 ? `${JSON.stringify(formula.slice(0, 40))}… (${formula.length} chars)` : JSON.stringify(formula);

describe('formula values', () => {
  test.each(results.map((entry) => [label(entry.formula), entry] as const))('%s', (_, entry) => {
    expect(resultOf(entry.formula, entry.names)).toBe(entry.value);
  });
});

describe('formula refusals', () => {
  test.each(refusals.map((entry) => [label(entry.formula), entry] as const))('%s', (_, entry) => {
    const { compiled } = compileWith(entry.formula, entry.names);
    expect(compiled.ok).toBe(false);
    const [first] = compiled.ok ? [] : compiled.errors;
    expect({ message: first && explain(first), position: first?.position }).toEqual({
      message: `${entry.message} at ${entry.position}`,
      position: entry.position,
    });
  });
});

describe('the parse tree', () => {
  test('counts every node, a table name included, and measures the height', () => {
    const { compiled } = compileWith('lookup(a + 1, rates) * -b');
    expect(compiled.ok && { nodes: compiled.formula.nodes, depth: compiled.formula.depth }).toEqual({
      nodes: 8,
      depth: 4,
    });
  });

  test('lists every unknown name of a formula, not only the first', () => {
    const { compiled } = compileWith('wieght / hieght ^ 2 + a');
    expect(compiled.ok ? [] : compiled.errors.map(explain)).toEqual([
      'unknown name `wieght` at 0',
      'unknown name `hieght` at 9',
    ]);
  });

  test('a formula compiled once gives each set of values its own answer', () => {
    const { compiled } = compileWith('a * b + c');
    if (!compiled.ok) throw new Error('does not compile');
    const formula: Formula = compiled.formula;
    expect(evaluate(formula.root, [2, 3, 4], [])).toBe(10);
    expect(evaluate(formula.root, new Float64Array([5, 6, -30]), [])).toBe(0);
  });
});
