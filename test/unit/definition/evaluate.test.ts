/**
 * Evaluating a definition: which values count, what a hidden input gives, display aliases,
 * the displayed unit system, and the helpers a renderer uses.
 */
import { describe, expect, test } from 'bun:test';
import { bmi } from '../../../src/calculators/templates/bmi.ts';
import { bodyFat } from '../../../src/calculators/templates/body-fat.ts';
import { type CompiledDefinition, compile } from '../../../src/definition/compile.ts';
import { evaluate, type Values } from '../../../src/definition/evaluate.ts';
import type { Definition, Output } from '../../../src/definition/types.ts';
import { bandOf, displayedInputs, displayedValue, primaryOutput } from '../../../src/definition/view.ts';
import { roofQuote } from '../../fixtures/roof-quote.ts';

function compiled(definition: Definition): CompiledDefinition {
  const result = compile(definition);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.compiled;
}

const roof = compiled(roofQuote());
const defaults = { area: 120, material: 'tiles', removal: false };
const roofOf = (values: Values) => evaluate(roof, values, 'metric');

describe('values', () => {
  test('defaults give every output', () => {
    expect(roofOf(defaults)).toEqual({ total: 5400, perSquareMetre: 45 });
  });

  test('a select counts as its option number, a toggle as 1 or 0, a table by lookup', () => {
    expect(roofOf({ ...defaults, material: 'metal', removal: true, layers: 2, area: 250 })).toEqual({
      total: 250 * 30 * (1 - 0.05) + 8 * 250 * 2,
      perSquareMetre: 30,
    });
    expect(roofOf({ ...defaults, removal: 1, layers: 1 })).toEqual(roofOf({ ...defaults, removal: true, layers: 1 }));
  });

  test('a visible input that is missing, of another type, out of range or not an option makes every output null', () => {
    const none = { total: null, perSquareMetre: null };
    for (const change of [
      { area: undefined },
      { area: '120' },
      { area: 9.99 },
      { area: 1000.01 },
      { area: Number.NaN },
      { area: Number.POSITIVE_INFINITY },
      { material: 'slate' },
      { material: 'constructor' },
      { material: 45 },
      { removal: 'true' },
      { removal: 2 },
      { removal: true },
    ]) {
      expect(roofOf({ ...defaults, ...change })).toEqual(none);
    }
    expect(roofOf(JSON.parse('{"__proto__": {"area": 120, "material": "tiles", "removal": false}}'))).toEqual(none);
  });

  test('a hidden input has no value: ignored when given, and null where a formula reads it outside an untaken branch', () => {
    expect(roofOf({ ...defaults, layers: 99 })).toEqual(roofOf(defaults));
    const definition = roofQuote();
    definition.outputs.push({ key: 'layerCost', label: 'Layers', formula: 'layers * 8' });
    expect(evaluate(compiled(definition), defaults, 'metric')).toEqual({
      total: 5400,
      perSquareMetre: 45,
      layerCost: null,
    });
  });

  test('an output that is not a finite number is null; the others still show', () => {
    const definition = roofQuote();
    definition.outputs.push({ key: 'broken', label: 'Broken', formula: 'area / 0' });
    expect(evaluate(compiled(definition), defaults, 'metric')).toEqual({
      total: 5400,
      perSquareMetre: 45,
      broken: null,
    });
  });
});

describe('unit systems and display aliases (bmi)', () => {
  const calculator = compiled(bmi.definition);
  const bmiOf = (values: Values, system: 'metric' | 'imperial') => evaluate(calculator, values, system).bmi;
  const kgPerLb = 0.45359237;

  test('the alias is read in the displayed system and converted', () => {
    expect(bmiOf({ weight: 80, height: 200 }, 'metric')).toBe(20);
    expect(bmiOf({ weight: 80 / kgPerLb, height: 200 / 2.54 }, 'imperial')).toBeCloseTo(20, 12);
  });

  test('the canonical key wins whenever it holds a number, in its own unit', () => {
    expect(bmiOf({ weightKg: 80, weight: 500, heightCm: 200 }, 'imperial')).toBe(20);
    expect(bmiOf({ weightKg: 80, heightCm: 200 }, 'imperial')).toBe(20);
    // Out of its own range it fails, whatever the alias says.
    expect(bmiOf({ weightKg: 700, weight: 80, height: 200 }, 'metric')).toBeNull();
  });

  test("the alias keeps its displayed range, and the converted value the canonical's", () => {
    expect(bmiOf({ weight: 4.4, height: 69 }, 'imperial')).toBeNull();
    expect(bmiOf({ weight: 1434, height: 69 }, 'imperial')).toBeNull();
    const wide: Definition = {
      id: 'wide',
      title: 'Wide',
      unitSystems: ['metric', 'imperial'],
      inputs: [
        { kind: 'number', key: 'lengthCm', label: 'Length', unit: 'cm', min: 0, max: 100, default: 50 },
        {
          kind: 'number',
          key: 'length',
          label: 'Length',
          unit: { metric: 'cm', imperial: 'in' },
          min: 0,
          max: 100,
          default: 10,
          aliasOf: 'lengthCm',
        },
      ],
      outputs: [{ key: 'cm', label: 'cm', formula: 'lengthCm' }],
    };
    expect(evaluate(compiled(wide), { length: 39 }, 'imperial').cm).toBeCloseTo(99.06, 12);
    expect(evaluate(compiled(wide), { length: 40 }, 'imperial').cm).toBeNull();
  });

  test('a system the calculator does not offer falls back to its first', () => {
    const metricOnly = compiled(roofQuote());
    expect(evaluate(metricOnly, defaults, 'imperial')).toEqual(evaluate(metricOnly, defaults, 'metric'));
  });

  test('`imperial` is 1 while imperial is displayed, else 0', () => {
    const definition = { ...roofQuote(), unitSystems: ['metric', 'imperial'] } as Definition;
    definition.outputs.push({ key: 'shown', label: 'Shown', formula: 'imperial' });
    expect(evaluate(compiled(definition), defaults, 'imperial').shown).toBe(1);
    expect(evaluate(compiled(definition), defaults, 'metric').shown).toBe(0);
  });
});

describe('compile', () => {
  test('lists the problems of formulas instead of throwing', () => {
    const definition = roofQuote();
    definition.outputs[0]!.formula = 'base *';
    const result = compile(definition);
    expect(result.ok ? [] : result.problems.map(({ path, error }) => [path, error.position])).toEqual([
      ['outputs[0].formula', 6],
    ]);
  });
});

describe('for a renderer', () => {
  test('displayed inputs show a display alias in place of its canonical input', () => {
    expect(displayedInputs(bmi.definition).map((input) => input.key)).toEqual(['weight', 'height']);
    expect(displayedInputs(roofQuote()).map((input) => input.key)).toEqual(['area', 'material', 'removal', 'layers']);
  });

  test('the primary output is the one marked, else the first', () => {
    expect(primaryOutput(roofQuote()).key).toBe('perSquareMetre');
    expect(primaryOutput(bmi.definition).key).toBe('bmi');
  });

  test('a band applies to the value as displayed', () => {
    const total = roofQuote().outputs[0] as Output;
    expect(bandOf(total, 5000.49, {})?.label).toBe('Small job');
    expect(displayedValue(total, 5000.5)).toBe(5001);
    expect(bandOf(total, 5000.5, {})?.label).toBe('Medium job');
    expect(bandOf(total, 1e9, {})).toEqual({ label: 'Large job', tone: 'caution' });
    expect(bandOf(total, Number.NaN, {})).toBeUndefined();
  });

  test('bandsBy takes the list of the select value, own keys only', () => {
    const output = bodyFat.definition.outputs[0] as Output;
    expect(bandOf(output, 20, { sex: 'male' })?.label).toBe('Average');
    expect(bandOf(output, 20, { sex: 'female' })?.label).toBe('Athletes');
    for (const sex of ['__proto__', 'constructor', 'other', 1]) expect(bandOf(output, 20, { sex })).toBeUndefined();
  });
});
