/**
 * A submitted result's values checked by the definition's input rules (what `submit` keeps):
 * every visible input valid, hidden ones dropped, toggles and selects as their values,
 * display aliases converted to their canonical unit.
 */
import { describe, expect, test } from 'bun:test';
import { bmi } from '../../../src/calculators/templates/bmi.ts';
import { type CompiledDefinition, compile } from '../../../src/definition/compile.ts';
import { checkSubmittedValues } from '../../../src/definition/submitted.ts';
import type { Definition } from '../../../src/definition/types.ts';
import { roofQuote } from '../../fixtures/roof-quote.ts';

function compiled(definition: Definition): CompiledDefinition {
  const result = compile(definition);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.compiled;
}

const roof = compiled(roofQuote());

describe('checked values', () => {
  test('a toggle is kept as a boolean (1 and 0 too), a select as its option value; a hidden input is dropped', () => {
    expect(checkSubmittedValues(roof, { area: 120, material: 'metal', removal: 0, layers: 2 }, 'metric')).toEqual({
      values: { area: 120, material: 'metal', removal: false },
      problems: [],
    });
    expect(checkSubmittedValues(roof, { area: 120, material: 'tiles', removal: 1, layers: 2 }, 'metric')).toEqual({
      values: { area: 120, material: 'tiles', removal: true, layers: 2 },
      problems: [],
    });
  });

  test('every broken visible input is named, with its rule', () => {
    const { problems } = checkSubmittedValues(roof, { area: 5, material: 'straw', removal: 'yes' }, 'metric');
    expect(problems).toEqual([
      { field: 'inputs.area', message: 'must be a number from 10 to 1000 (metric)' },
      { field: 'inputs.material', message: 'must be one of "tiles", "metal"' },
      { field: 'inputs.removal', message: 'must be true or false' },
    ]);
    // Shown once the toggle is on: then its own value is required.
    expect(checkSubmittedValues(roof, { area: 120, material: 'tiles', removal: true }, 'metric').problems).toEqual([
      { field: 'inputs.layers', message: 'must be a number from 1 to 3 (metric)' },
    ]);
  });

  test("a display alias's value is kept in the canonical unit; the canonical key wins", () => {
    const body = compiled(bmi.definition);
    const imperial = checkSubmittedValues(body, { weight: 154, height: 69 }, 'imperial');
    expect(imperial.problems).toEqual([]);
    expect(imperial.values.weightKg).toBeCloseTo(154 * 0.45359237, 12);
    expect(imperial.values.heightCm).toBeCloseTo(69 * 2.54, 12);
    expect(checkSubmittedValues(body, { weightKg: 70, weight: 1, heightCm: 170 }, 'metric').values).toEqual({
      weightKg: 70,
      heightCm: 170,
    });
    // An alias's range is its own, in the shown system.
    expect(checkSubmittedValues(body, { weight: 2000, height: 69 }, 'imperial').problems.map((p) => p.field)).toEqual([
      'inputs.weightKg',
    ]);
  });

  test('keys the definition does not have, and "__proto__", are ignored', () => {
    const sent = JSON.parse('{"area": 120, "material": "tiles", "removal": false, "extra": 1, "__proto__": {"x": 1}}');
    expect(checkSubmittedValues(roof, sent, 'metric')).toEqual({
      values: { area: 120, material: 'tiles', removal: false },
      problems: [],
    });
  });
});
