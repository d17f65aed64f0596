/** The widget's DOM-free logic: number parsing, pre-fill precedence, unit switching, the route helpers. */
import { describe, expect, test } from 'bun:test';
import { getTemplate } from '../../src/calculators/index.ts';
import type { Definition as CalculatorDefinition } from '../../src/definition/types.ts';
import { chooseEncoding, matchesEtag } from '../../src/http/encoding.ts';
import { convertDisplayed } from '../../widget/src/convert.ts';
import {
  applyPrefill,
  computeResult,
  createFormModel,
  currentValues,
  displayedFields,
  stateOf,
  switchSystem,
} from '../../widget/src/form-model.ts';
import { decimalsOfStep, parseDecimal, resolveLocale, unitSystemForLocale } from '../../widget/src/locale.ts';

function calculator(id: string): CalculatorDefinition {
  const found = getTemplate(id)?.definition;
  if (!found) throw new Error(`no calculator ${id}`);
  return found;
}

const valueAt = (model: ReturnType<typeof createFormModel>, key: string) => stateOf(model, key)?.value;

describe('parseDecimal', () => {
  test.each([
    ['80', 80],
    ['80.5', 80.5],
    ['80,5', 80.5],
    [' 1 234,5 ', 1234.5],
    ['1.234,5', 1234.5],
    ['1,234.5', 1234.5],
    ['1,234,567', 1234567],
    ['-3,5', -3.5],
    ['\u22123.5', -3.5],
    ['.5', 0.5],
    ['7.', 7],
  ])('%p → %p', (text, expected) => {
    expect(parseDecimal(text)).toBe(expected);
  });

  test.each(['', '   ', 'abc', '1e5', '12kg', '--1', '1.2.3,4,5', 'Infinity'])('%p is not a number', (text) => {
    expect(parseDecimal(text)).toBeNull();
  });
});

describe('locale', () => {
  test('the first valid candidate wins; malformed tags are skipped', () => {
    expect(resolveLocale([undefined, '', 'not a tag!', 'de-DE', 'fr'])).toBe('de-DE');
    expect(resolveLocale([null, undefined])).toBe('en');
  });

  test('US, Liberia and Myanmar default to imperial, the rest to metric', () => {
    expect(unitSystemForLocale('en-US')).toBe('imperial');
    expect(unitSystemForLocale('en')).toBe('imperial');
    expect(unitSystemForLocale('en-GB')).toBe('metric');
    expect(unitSystemForLocale('de')).toBe('metric');
    expect(unitSystemForLocale('my')).toBe('imperial');
  });

  test("a page locale without region takes the browser's region when the language matches", () => {
    expect(unitSystemForLocale('en', 'en-GB')).toBe('metric');
    expect(unitSystemForLocale('en', 'en-US')).toBe('imperial');
    expect(unitSystemForLocale('en', 'de-DE')).toBe('imperial');
    expect(unitSystemForLocale('en-US', 'en-GB')).toBe('imperial');
    expect(unitSystemForLocale('de', 'en-US')).toBe('metric');
  });

  test('input decimals follow the step', () => {
    expect([
      decimalsOfStep(undefined),
      decimalsOfStep(1),
      decimalsOfStep(0.1),
      decimalsOfStep(0.01),
      decimalsOfStep(0.5),
    ]).toEqual([2, 0, 1, 2, 1]);
  });
});

describe('form model', () => {
  test('bmi shows the display aliases, not the canonical keys', () => {
    expect(displayedFields(calculator('bmi')).map((field) => field.key)).toEqual(['weight', 'height']);
    expect(displayedFields(calculator('body-fat')).map((field) => field.key)).toEqual([
      'sex',
      'height',
      'neck',
      'waist',
      'hip',
    ]);
  });

  test('defaults per unit system and a result at once', () => {
    const metric = createFormModel(calculator('bmi'), 'metric');
    expect(currentValues(metric)).toEqual({ weight: 70, height: 175 });
    expect(computeResult(metric)?.bmi).toBeCloseTo(22.857, 3);
    const imperial = createFormModel(calculator('bmi'), 'imperial');
    expect(currentValues(imperial)).toEqual({ weight: 154, height: 69 });
  });

  test('a calculator with one unit system ignores an imperial request', () => {
    expect(createFormModel(calculator('loan'), 'imperial').system).toBe('metric');
  });

  test('weightKg wins over weight and is converted to the displayed unit', () => {
    const model = createFormModel(calculator('bmi'), 'imperial');
    expect(applyPrefill(model, { weightKg: 90, weight: 200, height: 70 }, 'webhook').sort()).toEqual([
      'height',
      'weight',
    ]);
    expect(valueAt(model, 'weight')).toBeCloseTo(198.416, 3);
    expect(valueAt(model, 'height')).toBe(70);
  });

  test('the seed pairs: weight + heightCm and height + weightKg, in either system', () => {
    const metric = createFormModel(calculator('bmi'), 'metric');
    applyPrefill(metric, { weight: 80, heightCm: 180 }, 'webhook');
    expect(computeResult(metric)?.bmi).toBeCloseTo(24.69, 2);
    const imperial = createFormModel(calculator('bmi'), 'imperial');
    applyPrefill(imperial, { height: 70.866, weightKg: 80 }, 'webhook');
    expect(computeResult(imperial)?.bmi).toBeCloseTo(24.69, 2);
  });

  test('touched fields, out-of-range values, wrong types and prototype keys are not applied', () => {
    const model = createFormModel(calculator('bmi'), 'metric');
    const weight = stateOf(model, 'weight');
    if (!weight) throw new Error('no weight');
    weight.touched = true;
    weight.value = 60;
    const values = JSON.parse('{"weightKg": 90, "heightCm": 1000, "__proto__": {"height": 150}}');
    expect(applyPrefill(model, values, 'webhook')).toEqual([]);
    expect(currentValues(model)).toEqual({ weight: 60, height: 175 });
    expect(applyPrefill(model, { height: '180' }, 'webhook')).toEqual([]);
  });

  test('select values must be one of the options; visibleIf follows them', () => {
    const model = createFormModel(calculator('body-fat'), 'metric');
    expect(Object.keys(currentValues(model))).not.toContain('hip');
    applyPrefill(model, { sex: 'nonsense' }, 'webhook');
    expect(valueAt(model, 'sex')).toBe('male');
    applyPrefill(model, { sex: 'female', hipCm: 100 }, 'webhook');
    expect(currentValues(model)).toMatchObject({ sex: 'female', hip: 100 });
  });

  test('switching units converts every value and back', () => {
    const model = createFormModel(calculator('bmi'), 'metric');
    applyPrefill(model, { weight: 80, height: 180 }, 'webhook');
    expect(switchSystem(model, 'imperial').sort()).toEqual(['height', 'weight']);
    expect(valueAt(model, 'weight')).toBeCloseTo(176.37, 2);
    expect(valueAt(model, 'height')).toBeCloseTo(70.866, 3);
    expect(computeResult(model)?.bmi).toBeCloseTo(24.69, 2);
    switchSystem(model, 'metric');
    expect(valueAt(model, 'weight')).toBeCloseTo(80, 9);
    expect(valueAt(model, 'height')).toBeCloseTo(180, 9);
  });

  test('fuel units convert too, so a trip costs the same in either system', () => {
    const model = createFormModel(calculator('fuel-cost'), 'metric');
    const before = computeResult(model)?.cost;
    switchSystem(model, 'imperial');
    expect(computeResult(model)?.cost).toBeCloseTo(before ?? Number.NaN, 9);
    expect(convertDisplayed(10, 'km', 'mi')).toBeCloseTo(6.2137, 4);
    expect(convertDisplayed(1, 'kg', 'km')).toBeNull();
  });
});

describe('route helpers', () => {
  test('encoding: br over gzip over identity; q=0 refuses', () => {
    expect(chooseEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(chooseEncoding('gzip')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(chooseEncoding('br;q=0, *')).toBe('gzip');
    expect(chooseEncoding('*;q=0')).toBe('identity');
    expect(chooseEncoding(null)).toBe('identity');
    expect(chooseEncoding('identity')).toBe('identity');
  });

  test('If-None-Match: exact, weak, list and *', () => {
    expect(matchesEtag('"abc"', '"abc"')).toBe(true);
    expect(matchesEtag('W/"abc"', '"abc"')).toBe(true);
    expect(matchesEtag('"x", "abc"', '"abc"')).toBe(true);
    expect(matchesEtag('*', '"abc"')).toBe(true);
    expect(matchesEtag('"abd"', '"abc"')).toBe(false);
    expect(matchesEtag(null, '"abc"')).toBe(false);
  });
});
