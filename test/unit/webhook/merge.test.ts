import { afterEach, describe, expect, test } from 'bun:test';
import { getTemplate } from '../../../src/calculators/index.ts';
import { perSystem } from '../../../src/definition/systems.ts';
import type { Definition, Input, NumberInput, UnitSystem } from '../../../src/definition/types.ts';
import { mergeWebhookValues } from '../../../src/webhook/merge.ts';

/** A definition with these inputs, made for the merge tests (never validated: odd keys are allowed here). */
function calculator(inputs: Input[], unitSystems: UnitSystem[] = ['metric', 'imperial']): Definition {
  return {
    id: 'test',
    title: 'Test',
    unitSystems,
    inputs,
    outputs: [{ key: 'out', label: 'Out', formula: '1' }],
  };
}

const weightKg: NumberInput = { key: 'weightKg', kind: 'number', label: 'Weight', min: 1, max: 500, default: 70 };
// Range depends on the unit system: metric 50–250 (cm), imperial 20–100 (in).
const height: NumberInput = {
  key: 'height',
  kind: 'number',
  label: 'Height',
  min: { metric: 50, imperial: 20 },
  max: { metric: 250, imperial: 100 },
  default: { metric: 170, imperial: 67 },
};
const sex: Input = {
  key: 'sex',
  kind: 'select',
  label: 'Sex',
  options: [
    { value: 'female', label: 'Female' },
    { value: 'male', label: 'Male' },
  ],
  default: 'female',
};
const calc = calculator([weightKg, height, sex]);

describe('values accepted and ignored', () => {
  test.each([
    ['valid number', '{"weightKg": 70}', { weightKg: 70 }, []],
    [
      'all fields',
      '{"weightKg": 70.5, "height": 180, "sex": "male"}',
      { weightKg: 70.5, height: 180, sex: 'male' },
      [],
    ],
    ['min edge', '{"weightKg": 1}', { weightKg: 1 }, []],
    ['max edge', '{"weightKg": 500}', { weightKg: 500 }, []],
    ['below min', '{"weightKg": 0.99}', {}, ['weightKg']],
    ['above max', '{"weightKg": 500.01}', {}, ['weightKg']],
    ['negative', '{"weightKg": -70}', {}, ['weightKg']],
    ['numeric string', '{"weightKg": "70"}', {}, ['weightKg']],
    ['empty string', '{"weightKg": ""}', {}, ['weightKg']],
    ['"NaN" string', '{"weightKg": "NaN"}', {}, ['weightKg']],
    ['"Infinity" string', '{"weightKg": "Infinity"}', {}, ['weightKg']],
    ['overflow to Infinity', '{"weightKg": 1e400}', {}, ['weightKg']],
    ['overflow to -Infinity', '{"weightKg": -1e400}', {}, ['weightKg']],
    ['null', '{"weightKg": null}', {}, ['weightKg']],
    ['boolean', '{"weightKg": true}', {}, ['weightKg']],
    ['array', '{"weightKg": [70]}', {}, ['weightKg']],
    ['object', '{"weightKg": {"value": 70}}', {}, ['weightKg']],
    ['select option', '{"sex": "female"}', { sex: 'female' }, []],
    ['select wrong case', '{"sex": "MALE"}', {}, ['sex']],
    ['select unknown option', '{"sex": "other"}', {}, ['sex']],
    ['select number', '{"sex": 1}', {}, ['sex']],
    ['select option label', '{"sex": "Male"}', {}, ['sex']],
    ['unknown key', '{"weightKg": 70, "bmi": 22, "foo": "bar"}', { weightKg: 70 }, ['bmi', 'foo']],
    ['key differing in case', '{"WeightKg": 70}', {}, ['WeightKg']],
    [
      'prototype-ish keys',
      '{"constructor": 1, "toString": 2, "hasOwnProperty": 3, "prototype": 4, "valueOf": 5}',
      {},
      ['constructor', 'toString', 'hasOwnProperty', 'prototype', 'valueOf'],
    ],
    [
      'prototype-ish keys with string values',
      '{"constructor": "female", "toString": "x", "__proto__": "male", "valueOf": "x"}',
      {},
      ['constructor', 'toString', '__proto__', 'valueOf'],
    ],
    ['empty object', '{}', {}, []],
    ['duplicate key: JSON keeps the last', '{"weightKg": 70, "weightKg": 9999}', {}, ['weightKg']],
  ])('%s', (_label, json, values, ignoredKeys) => {
    const result = mergeWebhookValues(calc, JSON.parse(json));
    expect(result.values).toEqual(values);
    expect(result.ignoredKeys).toEqual(ignoredKeys);
  });

  test.each([[Number.NaN], [Number.POSITIVE_INFINITY], [Number.NEGATIVE_INFINITY]])(
    'non-finite %p built in JS is ignored',
    (value) => {
      expect(mergeWebhookValues(calc, { weightKg: value })).toEqual({ values: {}, ignoredKeys: ['weightKg'] });
    },
  );

  test.each([[[]], [null], ['x'], [1], [true], [undefined], [[{ weightKg: 70 }]]])(
    'non-object body %j gives nothing',
    (body) => {
      expect(mergeWebhookValues(calc, body)).toEqual({ values: {}, ignoredKeys: [] });
    },
  );
});

describe('per-system ranges: inside either system is enough', () => {
  test.each([
    [20, true, 'imperial min'],
    [49, true, 'imperial only'],
    [50, true, 'metric min'],
    [100, true, 'both'],
    [101, true, 'metric only'],
    [250, true, 'metric max'],
    [19.9, false, 'below both'],
    [250.1, false, 'above both'],
  ])('height %p -> accepted=%p (%s)', (value, accepted) => {
    const result = mergeWebhookValues(calc, { height: value });
    expect(result.values).toEqual(accepted ? { height: value } : {});
  });

  test.each([
    [['metric'] as const, 30, false],
    [['metric'] as const, 60, true],
    [['imperial'] as const, 30, true],
    [['imperial'] as const, 150, false],
  ])('a calculator offering only %j: height %p -> accepted=%p', (systems, value, accepted) => {
    const result = mergeWebhookValues(calculator([height], [...systems]), { height: value });
    expect(Object.keys(result.values)).toEqual(accepted ? ['height'] : []);
  });
});

describe('prototype safety', () => {
  afterEach(() => {
    // Undo any pollution so one failure cannot cascade into other tests.
    delete (Object.prototype as Record<string, unknown>).polluted;
  });

  test.each([
    ['{"__proto__": {"polluted": 1}}'],
    ['{"__proto__": {"polluted": 1}, "weightKg": 70}'],
    ['{"constructor": {"prototype": {"polluted": 1}}}'],
    ['{"weightKg": 70, "__proto__": {"weightKg": 1, "polluted": 1}}'],
  ])('%s touches no prototype', (json) => {
    const body: unknown = JSON.parse(json);
    const { values, ignoredKeys } = mergeWebhookValues(calc, body);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(values)).toBe(Object.prototype);
    expect((values as Record<string, unknown>).polluted).toBeUndefined();
    expect(ignoredKeys).not.toContain('weightKg');
    expect(Object.keys(values).every((key) => key === 'weightKg')).toBe(true);
    expect(JSON.parse(JSON.stringify(values))).toEqual(values);
  });

  test('a field literally named __proto__ becomes an own property, not a prototype', () => {
    const odd = calculator([{ key: '__proto__', kind: 'number', label: 'Odd', min: 0, max: 10, default: 1 }]);
    const { values } = mergeWebhookValues(odd, JSON.parse('{"__proto__": 5}'));
    expect(Object.getPrototypeOf(values)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(values, '__proto__')?.value).toBe(5);
    expect(JSON.stringify(values)).toBe('{"__proto__":5}');
  });

  test('fields named like Object.prototype members only match own body keys', () => {
    const odd = calculator([{ key: 'toString', kind: 'number', label: 'Odd', min: 0, max: 10, default: 1 }]);
    expect(mergeWebhookValues(odd, {})).toEqual({ values: {}, ignoredKeys: [] });
    expect(mergeWebhookValues(odd, JSON.parse('{"toString": 3}')).values).toEqual({ toString: 3 });
  });

  test('inherited keys are not read', () => {
    const body: unknown = Object.create({ weightKg: 70 });
    expect(mergeWebhookValues(calc, body)).toEqual({ values: {}, ignoredKeys: [] });
  });

  test('getters are never invoked', () => {
    let called = false;
    const body = Object.defineProperty({}, 'weightKg', {
      enumerable: true,
      get() {
        called = true;
        return 70;
      },
    });
    expect(mergeWebhookValues(calc, body)).toEqual({ values: {}, ignoredKeys: ['weightKg'] });
    expect(called).toBe(false);
  });
});

describe("an owner's select and toggle inputs", () => {
  const quote = calculator(
    [
      {
        key: 'material',
        kind: 'select',
        label: 'Material',
        options: [
          { value: 'tiles', label: 'Tiles', number: 45 },
          { value: 'metal', label: 'Metal', number: 30 },
        ],
        default: 'tiles',
      },
      { key: 'removal', kind: 'toggle', label: 'Remove the old roof', default: false },
      { key: 'area', kind: 'number', label: 'Area', min: 10, max: 1000, default: 120 },
    ],
    ['metric'],
  );

  test.each([
    ['an option value', '{"material": "metal"}', { material: 'metal' }, []],
    ['an option label', '{"material": "Metal"}', {}, ['material']],
    ["an option's number", '{"material": 30}', {}, ['material']],
    ['an unknown option', '{"material": "slate"}', {}, ['material']],
    ['a prototype name as option', '{"material": "__proto__"}', {}, ['material']],
    ['true', '{"removal": true}', { removal: true }, []],
    ['false', '{"removal": false}', { removal: false }, []],
    ['1 for a toggle', '{"removal": 1}', {}, ['removal']],
    ['"true" for a toggle', '{"removal": "true"}', {}, ['removal']],
    ['null for a toggle', '{"removal": null}', {}, ['removal']],
    ['a boolean for a number', '{"area": true}', {}, ['area']],
    [
      'all three, with an unknown key',
      '{"material": "tiles", "removal": true, "area": 200, "roofColour": "red"}',
      { material: 'tiles', removal: true, area: 200 },
      ['roofColour'],
    ],
  ])('%s', (_label, json, values, ignoredKeys) => {
    expect(mergeWebhookValues(quote, JSON.parse(json))).toEqual({ values, ignoredKeys });
  });

  test('a definition without unit systems is metric: per-system values read as metric', () => {
    const metricOnly: Definition = { ...calculator([height]), unitSystems: undefined };
    expect(mergeWebhookValues(metricOnly, { height: 30 }).values).toEqual({});
    expect(mergeWebhookValues(metricOnly, { height: 60 }).values).toEqual({ height: 60 });
  });
});

describe('the real bmi template', () => {
  const bmi = getTemplate('bmi')?.definition;

  test('all four keys pass through unchanged (precedence is the widget’s job)', () => {
    expect(bmi).toBeDefined();
    if (!bmi) return;
    const body = { weightKg: 70, heightCm: 180, weight: 154, height: 69 };
    expect(mergeWebhookValues(bmi, body)).toEqual({ values: body, ignoredKeys: [] });
  });

  test('a per-system alias accepts a value valid only in the other system', () => {
    const input = bmi?.inputs.find(
      (candidate): candidate is NumberInput => candidate.key === 'weight' && candidate.kind === 'number',
    );
    expect(input).toBeDefined();
    if (!bmi || !input) return;
    const metricMax = perSystem(input.max, 'metric');
    const imperialMax = perSystem(input.max, 'imperial');
    const onlyImperial = Math.min(metricMax, imperialMax) + (Math.abs(metricMax - imperialMax) > 1 ? 1 : 0);
    const beyondBoth = Math.max(metricMax, imperialMax) + 1;
    expect(mergeWebhookValues(bmi, { weight: onlyImperial }).values).toEqual({ weight: onlyImperial });
    expect(mergeWebhookValues(bmi, { weight: beyondBoth })).toEqual({ values: {}, ignoredKeys: ['weight'] });
  });
});
