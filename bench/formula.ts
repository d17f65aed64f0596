/**
 * Formula benchmark: how long the server takes to evaluate a compiled 50-node formula
 * (target ≤ 2 µs median), with what compiling it and evaluating a whole catalogue
 * template cost, and the size of the formula and evaluation code as the widget will
 * bundle it (minified, gzip).
 *
 * Each sample times BATCH evaluations over 1,024 sets of values (so no branch sees one
 * value only); the figure is the median of SAMPLES samples after a warm-up. Runs on its
 * own (`bun bench/formula.ts`) or from bench/run.ts. Writes bench/results/formula.json.
 * Tunables (env): BENCH_FORMULA_SAMPLES (default 200).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { compoundInterest } from '../src/calculators/templates/compound-interest.ts';
import { compile } from '../src/definition/compile.ts';
import { evaluate as evaluateDefinition } from '../src/definition/evaluate.ts';
import { compileFormula, type Formula } from '../src/formula/compile.ts';
import { evaluate, type Table } from '../src/formula/evaluate.ts';
import { quantile, round2, round3 } from './lib/sampling.ts';
import { median, printTable, progress, ROOT, resultsHeader, writeResults, type BenchResults } from './lib/report.ts';

const SAMPLES = Math.max(50, Number(process.env.BENCH_FORMULA_SAMPLES ?? 200));
const BATCH = 10_000;
const TARGET_US = 2;

/** 50 nodes: arithmetic, a power, comparisons, logic, ?:, and nine functions (round, lookup and pmt among them). */
export const FORMULA =
  'clamp(a * 1.5 + b / 2 - c ^ 2, 0, 100) + (d > 3 && e <= 40 ? min(a, b) : max(d, e)) * round(e / 3, 2)' +
  ' - sqrt(abs(a - b)) + lookup(a, rates) + pmt(0.004, 360, b)';

const NAMES = new Map(['a', 'b', 'c', 'd', 'e'].map((name, i) => [name, i]));
const TABLES = new Map([['rates', 0]]);
const TABLE: Table[] = [{ at: [0, 10, 20, 50], to: [0.01, 0.02, 0.03, 0.05] }];

/** Deterministic values (a linear congruential generator), so runs compare. */
function valueSets(count: number): Float64Array[] {
  let state = 12345;
  const next = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
  return Array.from({ length: count }, () => Float64Array.from({ length: NAMES.size }, () => next() * 60));
}

/** Microseconds per call of `body`, one sample per entry. */
function sample(samples: number, batch: number, body: (i: number) => number): { runs: number[]; checksum: number } {
  let checksum = 0;
  for (let i = 0; i < batch * 20; i++) checksum += body(i);
  const runs: number[] = [];
  for (let s = 0; s < samples; s++) {
    const started = performance.now();
    for (let i = 0; i < batch; i++) checksum += body(i);
    runs.push(((performance.now() - started) * 1000) / batch);
  }
  return { runs, checksum };
}

function compiledFormula(): Formula {
  const compiled = compileFormula(FORMULA, NAMES, TABLES);
  if (!compiled.ok) throw new Error(`the bench formula does not compile: ${JSON.stringify(compiled.errors)}`);
  if (compiled.formula.nodes !== 50) throw new Error(`the bench formula has ${compiled.formula.nodes} nodes, not 50`);
  return compiled.formula;
}

/** Minified + gzip bytes of what the widget will bundle to evaluate definitions. */
async function widgetPartBytes(): Promise<{ minified: number; gzip: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'calc-bench-formula-'));
  try {
    const entry = join(dir, 'entry.ts');
    const from = (path: string) => JSON.stringify(join(ROOT, 'src', path));
    writeFileSync(
      entry,
      [
        `export { compile } from ${from('definition/compile.ts')};`,
        `export { evaluate } from ${from('definition/evaluate.ts')};`,
        `export { bandOf, displayedInputs, primaryOutput } from ${from('definition/view.ts')};`,
        `export { textIn } from ${from('definition/text.ts')};`,
      ].join('\n'),
    );
    const built = await Bun.build({ entrypoints: [entry], target: 'browser', format: 'esm', minify: true });
    const [output] = built.outputs;
    if (!built.success || !output) throw new AggregateError(built.logs, 'bundling the evaluation code failed');
    const code = Buffer.from(await output.text());
    return { minified: code.length, gzip: gzipSync(code, { level: 9 }).length };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<BenchResults> {
  const formula = compiledFormula();
  const sets = valueSets(1024);
  progress(`formula: ${SAMPLES} samples of ${BATCH} evaluations`);
  const evaluation = sample(SAMPLES, BATCH, (i) => evaluate(formula.root, sets[i & 1023] as Float64Array, TABLE));
  const compiling = sample(50, 200, () => (compileFormula(FORMULA, NAMES, TABLES).ok ? 1 : 0));
  const template = compile(compoundInterest.definition);
  if (!template.ok) throw new Error('the compound-interest template does not compile');
  const values = { principal: 10_000, monthlyContribution: 200, annualRate: 6, years: 10, compounding: 'monthly' };
  const whole = sample(
    50,
    2000,
    (i) => evaluateDefinition(template.compiled, { ...values, years: 1 + (i % 80) }, 'metric').fv ?? 0,
  );
  const size = await widgetPartBytes();

  const median50 = round3(median(evaluation.runs));
  const results: BenchResults = {
    ...resultsHeader('formula'),
    rows: [
      {
        metric: `evaluate a 50-node formula: median of ${SAMPLES} samples`,
        value: median50,
        unit: 'µs',
        target: `≤ ${TARGET_US} µs`,
        pass: median50 <= TARGET_US,
        note: `p90 ${round3(quantile(evaluation.runs, 0.9))} µs, min ${round3(Math.min(...evaluation.runs))} µs; depth ${formula.depth}`,
      },
      {
        metric: 'compile the same formula (parse and resolve names): median',
        value: round2(median(compiling.runs)),
        unit: 'µs',
        target: '',
        pass: null,
        note: 'once per definition load, not per evaluation',
      },
      {
        metric: 'evaluate the compound-interest template (read 5 inputs, 6 variables, 3 outputs): median',
        value: round2(median(whole.runs)),
        unit: 'µs',
        target: '',
        pass: null,
        note: 'per input change in the widget, per evaluate call on the server',
      },
      {
        metric: 'formula and definition evaluation code, minified + gzip',
        value: size.gzip,
        unit: 'B',
        target: '',
        pass: null,
        note: `${size.minified} B minified; what the widget bundles to evaluate any definition (budget: the whole widget ≤ 14 KB gzip)`,
      },
    ],
    formula: FORMULA,
    nodes: formula.nodes,
    depth: formula.depth,
    runsUs: evaluation.runs.map(round3),
    checksum: evaluation.checksum + compiling.checksum + whole.checksum,
  };
  writeResults('formula', results);
  return results;
}

if (import.meta.main) {
  const results = await run();
  printTable(results);
}
