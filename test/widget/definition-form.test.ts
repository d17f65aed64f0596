/**
 * The widget's form model on an owner's definition, without a browser: toggles and selects
 * under the pre-fill rules, visibleIf, and what calc:result reports.
 */
import { describe, expect, test } from 'bun:test';
import type { Definition } from '../../src/definition/types.ts';
import {
  applyPrefill,
  computeResult,
  createFormModel,
  currentValues,
  isVisible,
  stateOf,
  valueSources,
} from '../../widget/src/form-model.ts';
import { toInputValues } from '../../widget/src/transport.ts';

const quote: Definition = {
  id: 'quote',
  title: 'Quote',
  inputs: [
    { kind: 'number', key: 'area', label: 'Area', min: 10, max: 1000, default: 100 },
    {
      kind: 'select',
      key: 'plan',
      label: 'Plan',
      options: [
        { value: 'basic', label: 'Basic', number: 1 },
        { value: 'plus', label: 'Plus', number: 2 },
      ],
      default: 'basic',
    },
    { kind: 'toggle', key: 'extras', label: 'Extras', default: false },
    { kind: 'toggle', key: 'gold', label: 'Gold', default: true, visibleIf: { key: 'extras', equals: true } },
    {
      kind: 'number',
      key: 'carats',
      label: 'Carats',
      min: 1,
      max: 24,
      default: 18,
      visibleIf: { key: 'gold', equals: true },
    },
  ],
  outputs: [
    { key: 'price', label: 'Price', formula: 'area * plan + (extras ? 50 : 0)' },
    { key: 'perCarat', label: 'Per carat', formula: 'extras ? area / carats : 0 / 0' },
  ],
};

const visible = (model: ReturnType<typeof createFormModel>) =>
  model.fields.filter((state) => isVisible(model, state)).map((state) => state.field.key);

describe('a definition with toggles', () => {
  test('defaults: a toggle is false or true, inputs behind an unmet visibleIf are hidden, and so are theirs', () => {
    const model = createFormModel(quote, 'metric');
    expect(currentValues(model)).toEqual({ area: 100, plan: 'basic', extras: false });
    // `carats` follows `gold`, which is true by default but hidden behind `extras`.
    expect(visible(model)).toEqual(['area', 'plan', 'extras']);
    expect(computeResult(model)).toEqual({ price: 100, perCarat: null });
  });

  test('pre-fill: a toggle takes a boolean only, a select one of its values, a number a finite number in range', () => {
    const model = createFormModel(quote, 'metric');
    const values = JSON.parse(
      '{"extras": 1, "gold": "true", "plan": "Plus", "area": "200", "carats": 30, "__proto__": {"extras": true}}',
    );
    expect(applyPrefill(model, values, 'webhook')).toEqual([]);
    expect(applyPrefill(model, { extras: true, gold: false, plan: 'plus', area: 200 }, 'webhook').sort()).toEqual([
      'area',
      'extras',
      'gold',
      'plan',
    ]);
    expect(visible(model)).toEqual(['area', 'plan', 'extras', 'gold']);
    expect(valueSources(model)).toMatchObject({ extras: 'webhook', gold: 'webhook', carats: 'default' });
    expect(computeResult(model)).toEqual({ price: 450, perCarat: null });
  });

  test('what the visitor sets wins; every output null is no result at all', () => {
    const model = createFormModel(quote, 'metric');
    const extras = stateOf(model, 'extras');
    if (!extras) throw new Error('no extras');
    extras.value = true;
    extras.touched = true;
    expect(applyPrefill(model, { extras: false }, 'webhook')).toEqual([]);
    expect(computeResult(model)).toEqual({ price: 150, perCarat: 100 / 18 });
    const area = stateOf(model, 'area');
    if (area) area.value = 5;
    expect(computeResult(model)).toBeNull();
  });

  test('a definition whose formulas do not compile is refused, never half shown', () => {
    const broken = { ...quote, outputs: [{ key: 'price', label: 'Price', formula: 'area *' }] };
    expect(() => createFormModel(broken, 'metric')).toThrow();
  });

  test('values from JSON keep numbers, strings and booleans, own keys only', () => {
    expect(
      toInputValues(JSON.parse('{"a": 1, "b": "x", "c": true, "d": null, "e": [1], "__proto__": {"f": 1}}')),
    ).toEqual({ a: 1, b: 'x', c: true });
  });
});
