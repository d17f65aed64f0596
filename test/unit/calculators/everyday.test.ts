import { describe, expect, test } from 'bun:test';
import { catalogue } from './support/catalogue.ts';

const percentage = catalogue('percentage');
const tip = catalogue('tip');
const fuelCost = catalogue('fuel-cost');

describe('percentage', () => {
  test('15 % of 200 = 30', () => {
    expect(percentage.compute({ mode: 'percentOf', x: 15, y: 200 }, 'metric')?.result).toBeCloseTo(30, 10);
  });

  test('15 is 7.5 % of 200', () => {
    expect(percentage.compute({ mode: 'whatPercent', x: 15, y: 200 }, 'metric')?.result).toBeCloseTo(7.5, 10);
  });

  test('change from 80 to 100 is +25 %, from 100 to 80 is −20 %, from −50 to −25 is +50 %', () => {
    expect(percentage.compute({ mode: 'change', x: 80, y: 100 }, 'metric')?.result).toBeCloseTo(25, 10);
    expect(percentage.compute({ mode: 'change', x: 100, y: 80 }, 'metric')?.result).toBeCloseTo(-20, 10);
    expect(percentage.compute({ mode: 'change', x: -50, y: -25 }, 'metric')?.result).toBeCloseTo(50, 10);
  });

  test('division by zero gives null, never Infinity or NaN', () => {
    expect(percentage.compute({ mode: 'whatPercent', x: 15, y: 0 }, 'metric')).toBeNull();
    expect(percentage.compute({ mode: 'change', x: 0, y: 10 }, 'metric')).toBeNull();
    // X% of 0 is fine.
    expect(percentage.compute({ mode: 'percentOf', x: 15, y: 0 }, 'metric')).toEqual({ result: 0 });
  });
});

describe('tip', () => {
  test('50 with 15 % for one person: tip 7.50, total 57.50', () => {
    expect(tip.compute({ bill: 50, tipPercent: 15, people: 1 }, 'metric')).toEqual({
      tip: 7.5,
      total: 57.5,
      perPerson: 57.5,
    });
  });

  test('84.50 with 18 % split by 3: tip 15.21, total 99.71, 33.24 each', () => {
    const result = tip.compute({ bill: 84.5, tipPercent: 18, people: 3 }, 'metric');
    expect(result?.tip).toBeCloseTo(15.21, 10);
    expect(result?.total).toBeCloseTo(99.71, 10);
    expect(result?.perPerson).toBeCloseTo(33.2367, 4);
  });

  test('a fractional or zero number of people gives null', () => {
    expect(tip.compute({ bill: 50, tipPercent: 15, people: 2.5 }, 'metric')).toBeNull();
    expect(tip.compute({ bill: 50, tipPercent: 15, people: 0 }, 'metric')).toBeNull();
  });
});

describe('fuel cost', () => {
  test('metric: 300 km at 7 L/100 km and 1.80 per litre = 21 L, 37.80', () => {
    const result = fuelCost.compute({ distance: 300, fuelEconomy: 7, fuelPrice: 1.8 }, 'metric');
    expect(result?.fuel).toBeCloseTo(21, 10);
    expect(result?.cost).toBeCloseTo(37.8, 10);
  });

  test('imperial: 200 mi at 30 mpg and 3.50 per gallon = 6.67 gal, 23.33', () => {
    const result = fuelCost.compute({ distance: 200, fuelEconomy: 30, fuelPrice: 3.5 }, 'imperial');
    expect(result?.fuel).toBeCloseTo(6.6667, 4);
    expect(result?.cost).toBeCloseTo(23.3333, 4);
  });

  test('ranges depend on the unit system', () => {
    // 4 is a valid L/100 km figure but below the 5 mpg minimum.
    expect(fuelCost.compute({ distance: 100, fuelEconomy: 4, fuelPrice: 2 }, 'metric')).not.toBeNull();
    expect(fuelCost.compute({ distance: 100, fuelEconomy: 4, fuelPrice: 2 }, 'imperial')).toBeNull();
    expect(fuelCost.compute({ distance: 80_000, fuelEconomy: 30, fuelPrice: 2 }, 'imperial')).toBeNull();
  });
});
