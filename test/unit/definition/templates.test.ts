/**
 * The twelve catalogue calculators as templates of the formula language: valid, equal to
 * what the old compute functions gave on the fixture grid (test/fixtures/catalogue-grid.json),
 * and shown by the catalogue routes exactly as the old code did
 * (test/fixtures/catalogue-public.json).
 */
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { calculatorIds, getTemplate } from '../../../src/calculators/index.ts';
import { templates } from '../../../src/calculators/templates/index.ts';
import { publicCalculator } from '../../../src/calculators/templates/public.ts';
import { compile } from '../../../src/definition/compile.ts';
import { evaluate } from '../../../src/definition/evaluate.ts';
import type { UnitSystem } from '../../../src/definition/types.ts';
import { validateDefinition } from '../../../src/definition/validate.ts';
import { bandOf, displayedValue } from '../../../src/definition/view.ts';

interface GridRow {
  system: UnitSystem;
  values: Record<string, number | string>;
  outputs: Record<string, number> | null;
  bands?: Record<string, string | null>;
}

interface Grid {
  generatedAt: string;
  rows: number;
  calculators: Record<string, GridRow[]>;
}

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(join(import.meta.dir, '..', '..', 'fixtures', name), 'utf8'));
const grid = fixture('catalogue-grid.json') as Grid;
/** GET /v1/calculators's list as the old code served it. */
const oldPublic = (fixture('catalogue-public.json') as { calculators: { id: string }[] }).calculators;
const rowsOf = (id: string): GridRow[] => grid.calculators[id] ?? [];
const byId = templates.map((template) => [template.definition.id, template] as const);

test('the twelve former calculators are templates, in the catalogue order they had', () => {
  const oldIds = oldPublic.map((calculator) => calculator.id);
  expect(oldIds).toHaveLength(12);
  expect(calculatorIds.filter((id) => oldIds.includes(id))).toEqual(oldIds);
  for (const template of templates) expect(getTemplate(template.definition.id)).toBe(template);
});

describe('each template', () => {
  test.each(byId)('%s passes the validator', (_, template) => {
    expect(validateDefinition(template.definition)).toEqual([]);
  });

  test.each(byId)("%s shows today's public catalogue shape", (id, template) => {
    // A template added since has no former shape to keep.
    const old = oldPublic.find((calculator) => calculator.id === id);
    if (old) expect(publicCalculator(template)).toStrictEqual(old as ReturnType<typeof publicCalculator>);
  });
});

describe('the fixture grid', () => {
  test('was made from the old code, with a few hundred rows per calculator', () => {
    expect(grid.generatedAt).toMatch(/^[0-9a-f]{40}$/);
    for (const [id] of byId) expect(rowsOf(id).length).toBeGreaterThanOrEqual(100);
    expect(Object.values(grid.calculators).flat()).toHaveLength(grid.rows);
  });

  test.each(byId)('%s gives the same nulls, numbers, displayed values and bands', (id, template) => {
    const result = compile(template.definition);
    if (!result.ok) throw new Error(`${id} does not compile`);
    const mismatches: string[] = [];
    for (const row of rowsOf(id)) {
      const outputs = evaluate(result.compiled, row.values, row.system);
      const where = `${row.system} ${JSON.stringify(row.values)}`;
      if (row.outputs === null) {
        // Today's compute refused the inputs as a whole: every output is null.
        if (Object.values(outputs).some((value) => value !== null)) mismatches.push(`${where}: not null`);
        continue;
      }
      for (const output of template.definition.outputs) {
        const [want, got] = [row.outputs[output.key], outputs[output.key]];
        if (want === undefined || got === null || got === undefined) {
          mismatches.push(`${where}: ${output.key} ${got} for ${want}`);
          continue;
        }
        const relative = want === got ? 0 : Math.abs(got - want) / Math.abs(want);
        if (!(relative <= 1e-12) || displayedValue(output, got) !== displayedValue(output, want)) {
          mismatches.push(`${where}: ${output.key} ${got} for ${want}`);
        }
        if (row.bands && Object.hasOwn(row.bands, output.key)) {
          const band = bandOf(output, got, row.values)?.label ?? null;
          if (band !== row.bands[output.key]) mismatches.push(`${where}: band ${band} for ${row.bands[output.key]}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
  });
});
