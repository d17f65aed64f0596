/**
 * 100,000 random and mutated formulas: reading and running one never throws and never
 * hangs (the test's timeout), and every refusal points at a place within the formula
 * (its end included, for one that ends too early). Seeded, so a failure reproduces.
 */
import { expect, test } from 'bun:test';
import { compileFormula } from '../../../src/formula/compile.ts';
import { evaluate, type Table } from '../../../src/formula/evaluate.ts';
import { explain } from '../../../src/formula/messages.ts';
import { refusals, results } from '../../fixtures/formula-cases.ts';

const FORMULAS = 100_000;

/** mulberry32: small, fast and seeded. */
function randomSource(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = randomSource(0x5eed);
const below = (n: number) => Math.floor(random() * n);
const pick = <T>(items: readonly T[]): T => items[below(items.length)] as T;

const names = new Map([
  ['a', 0],
  ['b', 1],
  ['missing', 2],
]);
const slots = [3, -0.5, Number.NaN];
const tableIndex = new Map([['rates', 0]]);
const tableList: Table[] = [{ at: [0, 10, 100], to: [1, 2, 3] }];

const CHARACTERS = '0123456789abexyz_.,;:?!=<>&|+-*/%^()[]{}"\'` \t\n#$\\@~\u00a0\u2212а１😀';
const TOKENS = [
  ...['0', '1', '2.5', '1e3', '1e308', '0.1', '-1'],
  ...['a', 'b', 'missing', 'rates', 'nope', 'constructor', '__proto__', 'this', 'toString'],
  ...['min', 'max', 'round', 'floor', 'abs', 'sqrt', 'pow', 'exp', 'ln', 'log10', 'clamp', 'if', 'lookup', 'pmt'],
  ...['+', '-', '*', '/', '%', '^', '==', '!=', '<', '<=', '>', '>=', '&&', '||', '!', '?', ':', '(', ')', ',', '('],
  ...['.', '[', ']', '=', ';', '"', "'", '`', '//', '=>', '**', '&', '|'],
];
const CALLS = ['min', 'max', 'round', 'floor', 'ceil', 'abs', 'sqrt', 'pow', 'exp', 'expm1', 'ln', 'log1p'];
const MORE_CALLS = ['log10', 'clamp', 'if', 'pmt'];
const BINARY = ['+', '-', '*', '/', '%', '^', '==', '!=', '<', '<=', '>', '>=', '&&', '||'];

// How many more nodes the formula being generated may get: around the node limit at most.
let budget = 0;

/** A formula from the grammar itself, sometimes nested or sized past the limits. */
function grammatical(depth: number): string {
  const leaf = depth <= 0 || --budget <= 0 || random() < 0.25;
  if (leaf) return pick(['0', '1', '2.5', '1e300', 'a', 'b', 'missing', '0.001']);
  switch (below(6)) {
    case 0:
      return `${grammatical(depth - 1)} ${pick(BINARY)} ${grammatical(depth - 1)}`;
    case 1:
      return `${pick(['-', '!'])}${grammatical(depth - 1)}`;
    case 2:
      return `(${grammatical(depth - 1)})`;
    case 3:
      return `${grammatical(depth - 1)} ? ${grammatical(depth - 1)} : ${grammatical(depth - 1)}`;
    case 4: {
      const name = pick([...CALLS, ...MORE_CALLS]);
      const count = name === 'min' || name === 'max' ? 1 + below(4) : below(4);
      return `${name}(${Array.from({ length: count }, () => grammatical(depth - 1)).join(', ')})`;
    }
    default:
      return `lookup(${grammatical(depth - 1)}, ${pick(['rates', 'rates', 'a', 'nope'])})`;
  }
}

function tokenSoup(): string {
  return Array.from({ length: 1 + below(40) }, () => pick(TOKENS)).join(random() < 0.5 ? ' ' : '');
}

const seeds = [...results, ...refusals].map((entry) => entry.formula).filter((formula) => formula.length < 1200);

function generated(maxDepth: number): string {
  budget = 1 + below(260);
  return grammatical(1 + below(maxDepth));
}

function mutated(): string {
  let formula = random() < 0.5 ? pick(seeds) : generated(8);
  for (let i = 0, n = 1 + below(4); i < n; i++) {
    const at = below(formula.length + 1);
    const char = pick([...CHARACTERS]);
    switch (below(5)) {
      case 0:
        formula = formula.slice(0, at) + char + formula.slice(at);
        break;
      case 1:
        formula = formula.slice(0, at) + formula.slice(at + 1);
        break;
      case 2:
        formula = formula.slice(0, at) + char + formula.slice(at + 1);
        break;
      case 3:
        formula = formula.slice(0, at) + formula.slice(below(formula.length + 1), at) + formula.slice(at);
        break;
      default:
        formula = formula.slice(at) + formula.slice(0, at);
    }
  }
  return formula;
}

test(`${FORMULAS.toLocaleString('en')} random and mutated formulas: no throw, no hang, refusals placed within the formula`, () => {
  let accepted = 0;
  let refused = 0;
  const misplaced: string[] = [];
  for (let i = 0; i < FORMULAS; i++) {
    const kind = i % 3;
    const formula = kind === 0 ? mutated() : kind === 1 ? tokenSoup() : generated(40);
    const compiled = compileFormula(formula, names, tableIndex);
    if (compiled.ok) {
      const value = evaluate(compiled.formula.root, slots, tableList);
      if (typeof value !== 'number') misplaced.push(`${JSON.stringify(formula)} gave ${typeof value}`);
      accepted++;
      continue;
    }
    refused++;
    for (const error of compiled.errors) {
      const placed = Number.isInteger(error.position) && error.position >= 0 && error.position <= formula.length;
      const message = explain(error);
      if (!placed || !/^[^ ].* at \d+$/.test(message)) misplaced.push(`${JSON.stringify(formula)}: ${message}`);
    }
  }
  expect(misplaced.slice(0, 5)).toEqual([]);
  // The mix exercises both paths, each a good share of the whole.
  expect(accepted).toBeGreaterThan(FORMULAS / 10);
  expect(refused).toBeGreaterThan(FORMULAS / 10);
}, 60_000);
