import { describe, expect, test } from 'bun:test';
import type { Values } from '../../../src/definition/evaluate.ts';
import type { Output } from '../../../src/definition/types.ts';
import { bandOf } from '../../../src/definition/view.ts';
import { catalogue } from './support/catalogue.ts';

/** The label of the band the value falls in, as the widget shows it. */
const bandFor = (output: Output, value: number, values: Values = {}) => bandOf(output, value, values)?.label;

const bmiResult = catalogue('bmi').output('bmi');
const bodyFatResult = catalogue('body-fat').output('bodyFat');

describe('bands of the catalogue templates', () => {
  test('WHO BMI categories', () => {
    expect(bandFor(bmiResult, 17)).toBe('Underweight');
    expect(bandFor(bmiResult, 22.857)).toBe('Normal weight');
    expect(bandFor(bmiResult, 27)).toBe('Overweight');
    expect(bandFor(bmiResult, 32)).toBe('Obesity class I');
    expect(bandFor(bmiResult, 37)).toBe('Obesity class II');
    expect(bandFor(bmiResult, 45)).toBe('Obesity class III');
  });

  test('min is inclusive, max exclusive', () => {
    expect(bandFor(bmiResult, 18.5)).toBe('Normal weight');
    expect(bandFor(bmiResult, 25)).toBe('Overweight');
    expect(bandFor(bmiResult, 40)).toBe('Obesity class III');
    expect(bandFor(bmiResult, 18.4)).toBe('Underweight');
    expect(bandFor(bmiResult, 0)).toBe('Underweight');
  });

  test('classifies the value as displayed (rounded to the result decimals)', () => {
    // 24.96 is displayed as 25.0: the label must not say "Normal weight".
    expect(bandFor(bmiResult, 24.96)).toBe('Overweight');
    expect(bandFor(bmiResult, 24.94)).toBe('Normal weight');
    expect(bandFor(bmiResult, 18.46)).toBe('Normal weight');
    expect(bandFor(bmiResult, 18.44)).toBe('Underweight');
  });

  test('body-fat bands depend on sex', () => {
    expect(bandFor(bodyFatResult, 20, { sex: 'male' })).toBe('Average');
    expect(bandFor(bodyFatResult, 20, { sex: 'female' })).toBe('Athletes');
    expect(bandFor(bodyFatResult, 30, { sex: 'male' })).toBe('Obese');
    expect(bandFor(bodyFatResult, 30, { sex: 'female' })).toBe('Average');
    expect(bandFor(bodyFatResult, 4, { sex: 'male' })).toBe('Essential');
  });

  test('no band without the deciding field, for an unknown or inherited value, or without bands', () => {
    expect(bandFor(bodyFatResult, 20)).toBeUndefined();
    expect(bandFor(bodyFatResult, 20, { sex: 'other' })).toBeUndefined();
    expect(bandFor(bodyFatResult, 20, { sex: '__proto__' })).toBeUndefined();
    expect(bandFor(bodyFatResult, 20, { sex: 'toString' })).toBeUndefined();
    expect(bandFor(catalogue('loan').output('payment'), 1199.1)).toBeUndefined();
  });

  test('non-finite values have no band', () => {
    expect(bandFor(bmiResult, Number.NaN)).toBeUndefined();
    expect(bandFor(bmiResult, Number.POSITIVE_INFINITY)).toBeUndefined();
  });
});
