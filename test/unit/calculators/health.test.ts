import { describe, expect, test } from 'bun:test';
import { catalogue } from './support/catalogue.ts';

const bmi = catalogue('bmi');
const bmr = catalogue('bmr');
const tdee = catalogue('tdee');
const bodyFat = catalogue('body-fat');
const targetHeartRate = catalogue('target-heart-rate');

describe('bmi', () => {
  test('70 kg / 175 cm = 22.857 (canonical keys, any unit system)', () => {
    expect(bmi.compute({ weightKg: 70, heightCm: 175 }, 'metric')?.bmi).toBeCloseTo(22.857142857, 8);
    // weightKg/heightCm mean kg/cm even when imperial is displayed.
    expect(bmi.compute({ weightKg: 70, heightCm: 175 }, 'imperial')?.bmi).toBeCloseTo(22.857142857, 8);
  });

  test('aliases are read in the displayed unit system', () => {
    expect(bmi.compute({ weight: 70, height: 175 }, 'metric')?.bmi).toBeCloseTo(22.857142857, 8);
    // 154 lb = 69.853 kg, 69 in = 175.26 cm → 22.74 (the 703 shortcut gives 22.7).
    expect(bmi.compute({ weight: 154, height: 69 }, 'imperial')?.bmi).toBeCloseTo(22.7416, 4);
  });

  test('the seed pairs weight + heightCm and height + weightKg both work', () => {
    // 154 lb with 175 cm
    expect(bmi.compute({ weight: 154, heightCm: 175 }, 'imperial')?.bmi).toBeCloseTo(22.8092, 4);
    // 70 kg with 69 in = 175.26 cm
    expect(bmi.compute({ weightKg: 70, height: 69 }, 'imperial')?.bmi).toBeCloseTo(70 / 1.7526 ** 2, 10);
  });

  test('the canonical key wins over its alias', () => {
    expect(bmi.compute({ weightKg: 70, weight: 154, heightCm: 175, height: 69 }, 'imperial')?.bmi).toBeCloseTo(
      22.857142857,
      8,
    );
    // Even an out-of-range alias does not matter when the canonical key is there.
    expect(bmi.compute({ weightKg: 70, weight: 99999, heightCm: 175 }, 'metric')?.bmi).toBeCloseTo(22.857142857, 8);
    // ...and an out-of-range canonical key is not rescued by a valid alias.
    expect(bmi.compute({ weightKg: 9999, weight: 70, heightCm: 175 }, 'metric')).toBeNull();
  });

  test('alias ranges follow the displayed unit system', () => {
    // 1000 is a possible weight in lb but not in kg.
    expect(bmi.compute({ weight: 1000, height: 69 }, 'imperial')).not.toBeNull();
    expect(bmi.compute({ weight: 1000, height: 175 }, 'metric')).toBeNull();
    expect(bmi.compute({ weight: 4.41, height: 69 }, 'imperial')).not.toBeNull();
    expect(bmi.compute({ weight: 4.4, height: 69 }, 'imperial')).toBeNull();
  });

  test('missing, non-finite, string or out-of-range input gives null', () => {
    expect(bmi.compute({ weightKg: 70 }, 'metric')).toBeNull();
    expect(bmi.compute({ weightKg: Number.NaN, heightCm: 175 }, 'metric')).toBeNull();
    expect(bmi.compute({ weightKg: Number.POSITIVE_INFINITY, heightCm: 175 }, 'metric')).toBeNull();
    expect(bmi.compute({ weightKg: '70', heightCm: 175 }, 'metric')).toBeNull();
    expect(bmi.compute({ weightKg: 70, heightCm: 39 }, 'metric')).toBeNull();
    expect(bmi.compute({ weightKg: 651, heightCm: 175 }, 'metric')).toBeNull();
  });

  test('range bounds are inclusive', () => {
    expect(bmi.compute({ weightKg: 2, heightCm: 272 }, 'metric')?.bmi).toBeCloseTo(2 / 2.72 ** 2, 10);
    expect(bmi.compute({ weightKg: 650, heightCm: 40 }, 'metric')?.bmi).toBeCloseTo(4062.5, 8);
  });

  test('inherited keys in the values are ignored', () => {
    const values = Object.create({ weightKg: 70, heightCm: 175 }) as Record<string, number>;
    expect(bmi.compute(values, 'metric')).toBeNull();
  });
});

describe('bmr (Mifflin–St Jeor)', () => {
  test('male 70 kg, 175 cm, 30 y = 1648.75 kcal; female = 1482.75 kcal', () => {
    expect(bmr.compute({ weightKg: 70, heightCm: 175, age: 30, sex: 'male' }, 'metric')).toEqual({ bmr: 1648.75 });
    expect(bmr.compute({ weightKg: 70, heightCm: 175, age: 30, sex: 'female' }, 'metric')).toEqual({ bmr: 1482.75 });
  });

  test('imperial aliases are converted before the formula', () => {
    // 154 lb = 69.8532 kg, 69 in = 175.26 cm: 698.532 + 1095.375 − 150 + 5
    expect(bmr.compute({ weight: 154, height: 69, age: 30, sex: 'male' }, 'imperial')?.bmr).toBeCloseTo(1648.9072, 4);
  });

  test('unknown sex or out-of-range age gives null', () => {
    expect(bmr.compute({ weightKg: 70, heightCm: 175, age: 30, sex: 'other' }, 'metric')).toBeNull();
    expect(bmr.compute({ weightKg: 70, heightCm: 175, age: 30, sex: 5 }, 'metric')).toBeNull();
    expect(bmr.compute({ weightKg: 70, heightCm: 175, age: 14, sex: 'male' }, 'metric')).toBeNull();
  });
});

describe('tdee', () => {
  const person = { weightKg: 70, heightCm: 175, age: 30, sex: 'male' };

  test('BMR × activity factor, −500 to lose and +300 to gain', () => {
    const result = tdee.compute({ ...person, activity: 'moderate' }, 'metric');
    expect(result?.tdee).toBeCloseTo(1648.75 * 1.55, 10);
    expect(result?.lose).toBeCloseTo(2055.5625, 10);
    expect(result?.gain).toBeCloseTo(2855.5625, 10);
    expect(tdee.compute({ ...person, activity: 'sedentary' }, 'metric')?.tdee).toBeCloseTo(1978.5, 10);
    expect(tdee.compute({ ...person, activity: 'extra' }, 'metric')?.tdee).toBeCloseTo(3132.625, 10);
  });

  test('weight loss target never goes below 1200 kcal', () => {
    // 400 + 937.5 − 400 − 161 = 776.5 kcal BMR × 1.2 = 931.8
    const result = tdee.compute(
      { weightKg: 40, heightCm: 150, age: 80, sex: 'female', activity: 'sedentary' },
      'metric',
    );
    expect(result?.tdee).toBeCloseTo(931.8, 10);
    expect(result?.lose).toBe(1200);
  });

  test('unknown activity gives null', () => {
    expect(tdee.compute({ ...person, activity: '1.55' }, 'metric')).toBeNull();
    expect(tdee.compute({ ...person, activity: 'constructor' }, 'metric')).toBeNull();
  });
});

describe('body fat (U.S. Navy)', () => {
  // The DoD's inch form of the same regression, used as an independent check.
  const inchFormula = {
    male: (h: number, n: number, w: number) => 86.01 * Math.log10(w - n) - 70.041 * Math.log10(h) + 36.76,
    female: (h: number, n: number, w: number, hp: number) =>
      163.205 * Math.log10(w + hp - n) - 97.684 * Math.log10(h) - 78.387,
  };

  test('male 178 cm, neck 38 cm, waist 96 cm = 24.2 %', () => {
    const result = bodyFat.compute({ sex: 'male', heightCm: 178, neckCm: 38, waistCm: 96 }, 'metric');
    expect(result?.bodyFat).toBeCloseTo(24.2216, 4);
  });

  test('worked example: man 70 in, waist 34 in, neck 15 in ≈ 17.5 %', () => {
    const result = bodyFat.compute({ sex: 'male', height: 70, neck: 15, waist: 34 }, 'imperial');
    expect(result?.bodyFat).toBeCloseTo(17.4347, 4);
    expect(Math.abs((result?.bodyFat ?? 0) - inchFormula.male(70, 15, 34))).toBeLessThan(0.5);
  });

  test('female 165 cm, neck 32, waist 80, hip 100 = 32.4 % (inch form within 0.5)', () => {
    const result = bodyFat.compute({ sex: 'female', heightCm: 165, neckCm: 32, waistCm: 80, hipCm: 100 }, 'metric');
    expect(result?.bodyFat).toBeCloseTo(32.3736, 4);
    const inches = (cm: number) => cm / 2.54;
    const dod = inchFormula.female(inches(165), inches(32), inches(80), inches(100));
    expect(Math.abs((result?.bodyFat ?? 0) - dod)).toBeLessThan(0.5);
  });

  test('hip is required for women only', () => {
    expect(bodyFat.compute({ sex: 'female', heightCm: 165, neckCm: 32, waistCm: 80 }, 'metric')).toBeNull();
    const male = bodyFat.compute({ sex: 'male', heightCm: 178, neckCm: 38, waistCm: 96 }, 'metric');
    const maleWithHip = bodyFat.compute({ sex: 'male', heightCm: 178, neckCm: 38, waistCm: 96, hipCm: 150 }, 'metric');
    expect(maleWithHip).toEqual(male);
  });

  test('waist not larger than neck gives null, not NaN or a negative percentage', () => {
    expect(bodyFat.compute({ sex: 'male', heightCm: 178, neckCm: 40, waistCm: 40 }, 'metric')).toBeNull();
    expect(bodyFat.compute({ sex: 'male', heightCm: 178, neckCm: 50, waistCm: 45 }, 'metric')).toBeNull();
    // Positive difference but implausibly small: the formula goes negative, which is no result.
    expect(bodyFat.compute({ sex: 'male', heightCm: 178, neckCm: 40, waistCm: 41 }, 'metric')).toBeNull();
  });
});

describe('target heart rate (Karvonen)', () => {
  test('age 35, resting 65 bpm, 50–85 %: max 185, zone 125–167 bpm', () => {
    const result = targetHeartRate.compute({ age: 35, restingHr: 65, intensityLow: 50, intensityHigh: 85 }, 'metric');
    expect(result).toEqual({ hrMax: 185, low: 125, high: 167 });
  });

  test('age 40, resting 70 bpm, 70 % = 147 bpm', () => {
    const result = targetHeartRate.compute({ age: 40, restingHr: 70, intensityLow: 70, intensityHigh: 70 }, 'metric');
    expect(result?.low).toBeCloseTo(147, 10);
    expect(result?.high).toBeCloseTo(147, 10);
  });

  test('reversed intensities or a resting rate at the maximum give null', () => {
    expect(
      targetHeartRate.compute({ age: 35, restingHr: 65, intensityLow: 85, intensityHigh: 50 }, 'metric'),
    ).toBeNull();
    // 220 − 100 = 120 = resting: no reserve left.
    expect(
      targetHeartRate.compute({ age: 100, restingHr: 120, intensityLow: 50, intensityHigh: 85 }, 'metric'),
    ).toBeNull();
  });
});
