/**
 * The formula language in real Chromium: the modules the widget evaluates with (parser,
 * interpreter, definition compile and evaluation), bundled for the browser as widget.js is
 * and run under a Content-Security-Policy without 'unsafe-eval', give exactly the server's
 * answers: every case of the formula table (values, and refusals with code and place),
 * and every row of the catalogue grid through the twelve templates.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { templates } from '../../src/calculators/index.ts';
import { compile } from '../../src/definition/compile.ts';
import { evaluate as evaluateDefinition } from '../../src/definition/evaluate.ts';
import type { Definition, UnitSystem } from '../../src/definition/types.ts';
import { compileFormula } from '../../src/formula/compile.ts';
import { evaluate } from '../../src/formula/evaluate.ts';
import { type Names, names, refusals, results, tables } from '../fixtures/formula-cases.ts';
import { launchChromium } from '../helpers/chromium.ts';
import { ROOT } from '../helpers/process.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { HOOK_TIMEOUT_MS } from '../helpers/timeouts.ts';
import { startTarget, type TargetServer } from '../helpers/webhook-target.ts';
import { recordCspViolations } from './support/widget-suite.ts';
import { closeRecordedPage, openRecordedPage, type RecordedPage } from './support/widget-page.ts';

interface Engine {
  compileFormula: typeof compileFormula;
  evaluate: typeof evaluate;
  compile: typeof compile;
  evaluateDefinition: typeof evaluateDefinition;
}

declare global {
  interface Window {
    calcEngine?: Engine;
  }
}

interface Case {
  formula: string;
  names: Names;
}

interface GridRow {
  system: UnitSystem;
  values: Record<string, unknown>;
}

/**
 * Runs the formula cases with an engine (the page's own when none is given): a value (null
 * for not a number) with the tree's size, or every refusal as the evaluator reports it.
 * Playwright hands it to the page as its source, so it uses nothing from its surroundings.
 */
function runCases(
  { cases, tableRows }: { cases: Case[]; tableRows: Record<string, [number, number][]> },
  engine = window.calcEngine as Engine,
) {
  const tableIndex = new Map(Object.keys(tableRows).map((name, i) => [name, i]));
  const tableList = Object.values(tableRows).map((rows) => ({
    at: rows.map((row) => row[0]),
    to: rows.map((row) => row[1]),
  }));
  return cases.map(({ formula, names: declared }) => {
    const slots = new Map(Object.keys(declared).map((name, i) => [name, i]));
    const values = Object.values(declared).map((value) => value ?? Number.NaN);
    const compiled = engine.compileFormula(formula, slots, tableIndex);
    if (!compiled.ok) {
      return {
        errors: compiled.errors.map(({ code, position, text, found }) => ({ code, position, text, found })),
      };
    }
    const value = engine.evaluate(compiled.formula.root, values, tableList);
    return { value: Number.isNaN(value) ? null : value, nodes: compiled.formula.nodes, depth: compiled.formula.depth };
  });
}

/** Runs each template on its grid rows with an engine (the page's own by default): every row's outputs. */
function runGrid(grid: { definition: Definition; rows: GridRow[] }[], engine = window.calcEngine as Engine) {
  return grid.map(({ definition, rows }) => {
    const result = engine.compile(definition);
    if (!result.ok) return [];
    return rows.map((row) => engine.evaluateDefinition(result.compiled, row.values, row.system));
  });
}

const cases: Case[] = [...results, ...refusals].map((entry) => ({
  formula: entry.formula,
  names: entry.names ?? names,
}));
const gridFile = JSON.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'catalogue-grid.json'), 'utf8')) as {
  calculators: Record<string, GridRow[]>;
};
const grid = templates.map(({ definition }) => ({ definition, rows: gridFile.calculators[definition.id] ?? [] }));
const server: Engine = { compileFormula, evaluate, compile, evaluateDefinition };

let browser: Browser;
let site: TargetServer;
let opened: RecordedPage;

beforeAll(async () => {
  // The evaluation modules bundled as widget/build/bundle.ts bundles the widget: for the
  // browser, as one minified script.
  using dir = tempDir();
  const entry = join(dir.path, 'engine.ts');
  const from = (path: string) => JSON.stringify(join(ROOT, 'src', path));
  writeFileSync(
    entry,
    [
      `import { compileFormula } from ${from('formula/compile.ts')};`,
      `import { evaluate } from ${from('formula/evaluate.ts')};`,
      `import { compile } from ${from('definition/compile.ts')};`,
      `import { evaluate as evaluateDefinition } from ${from('definition/evaluate.ts')};`,
      'window.calcEngine = { compileFormula, evaluate, compile, evaluateDefinition };',
    ].join('\n'),
  );
  const built = await Bun.build({ entrypoints: [entry], target: 'browser', format: 'iife', minify: true });
  if (!built.success) throw new AggregateError(built.logs, 'the engine bundle failed');
  const script = (await built.outputs[0]?.text()) ?? '';
  site = startTarget('127.0.0.1', (request) =>
    new URL(request.url).pathname === '/engine.js'
      ? new Response(script, { headers: { 'content-type': 'text/javascript' } })
      : new Response('<!doctype html><title>engine</title><script src="/engine.js"></script>', {
          headers: {
            'content-type': 'text/html; charset=utf-8',
            // Nothing but the page's own script: no 'unsafe-eval', no inline code.
            'content-security-policy': "default-src 'none'; script-src 'self'",
          },
        }),
  );
  browser = await launchChromium();
  opened = await openRecordedPage(browser);
  await recordCspViolations(opened.context);
  await opened.page.goto(site.url('/'));
  await opened.page.waitForFunction(() => window.calcEngine !== undefined);
}, HOOK_TIMEOUT_MS);

afterAll(async () => {
  if (opened) {
    expect(await opened.page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual(
      [],
    );
    await closeRecordedPage(opened);
  }
  await browser?.close();
  await site?.stop();
}, HOOK_TIMEOUT_MS);

test('every formula of the table gives the server’s value or refusal, to the bit', async () => {
  const inBrowser = await opened.page.evaluate(runCases, { cases, tableRows: tables });
  const onServer = runCases({ cases, tableRows: tables }, server);
  expect(inBrowser).toHaveLength(results.length + refusals.length);
  expect(inBrowser).toEqual(onServer);
  // And the table's own answers: the values it writes down, a refusal for each refusal case.
  expect(inBrowser.slice(0, results.length).map((entry) => ('value' in entry ? entry.value : 'refused'))).toEqual(
    results.map((entry) => entry.value),
  );
  expect(inBrowser.slice(results.length).map((entry) => 'errors' in entry)).toEqual(refusals.map(() => true));
});

test('every row of the catalogue grid gives the server’s outputs through the twelve templates', async () => {
  const inBrowser = await opened.page.evaluate(runGrid, grid);
  const onServer = runGrid(grid, server);
  expect(inBrowser.flat().length).toBeGreaterThan(3000);
  expect(inBrowser).toEqual(onServer);
});
