import { describe, expect, test } from 'bun:test';
import { cmToIn, convertUnit, inToCm, kgToLb, lbToKg } from '../../../src/definition/units.ts';

describe('unit conversion', () => {
  test('uses the exact international factors', () => {
    expect(lbToKg(1)).toBe(0.45359237);
    expect(lbToKg(100)).toBeCloseTo(45.359237, 12);
    expect(inToCm(1)).toBe(2.54);
    expect(inToCm(12)).toBeCloseTo(30.48, 12);
    expect(kgToLb(0.45359237)).toBe(1);
    expect(cmToIn(30.48)).toBeCloseTo(12, 12);
    expect(kgToLb(70)).toBeCloseTo(154.3236, 4);
  });

  test('round trips within floating-point precision', () => {
    for (const value of [0.1, 1, 69, 175.26, 650, 1433]) {
      expect(kgToLb(lbToKg(value))).toBeCloseTo(value, 10);
      expect(inToCm(cmToIn(value))).toBeCloseTo(value, 10);
    }
  });

  test('convertUnit converts by unit name, both ways', () => {
    expect(convertUnit(154, 'lb', 'kg')).toBe(lbToKg(154));
    expect(convertUnit(69, 'in', 'cm')).toBe(inToCm(69));
    expect(convertUnit(70, 'kg', 'lb')).toBe(kgToLb(70));
    expect(convertUnit(175, 'cm', 'in')).toBe(cmToIn(175));
    expect(convertUnit(42, 'kg', 'kg')).toBe(42);
  });

  test('convertUnit refuses unknown units and mixed dimensions', () => {
    expect(convertUnit(1, 'kg', 'cm')).toBeNull();
    expect(convertUnit(1, 'in', 'lb')).toBeNull();
    expect(convertUnit(1, 'stone', 'kg')).toBeNull();
    expect(convertUnit(1, 'kg', 'toString')).toBeNull();
  });
});
