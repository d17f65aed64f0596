import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'bun:test';
import { calculatorIds, calculators, getCalculator } from '../../../src/calculators/index.ts';
import {
  perSystem,
  toPublic,
  type CalculatorDefinition,
  type FieldValues,
  type NumberField,
  type UnitSystem,
} from '../../../src/calculators/definition.ts';
import { convertUnit } from '../../../src/calculators/units.ts';
import { ROOT } from '../../helpers/process.ts';

/** The ids docs/embedding.md lists for `data-calc-id`, in the order it gives them. */
function documentedIds(): string[] {
  const docs = readFileSync(join(ROOT, 'docs', 'embedding.md'), 'utf8');
  const list = /^Calculators \(`data-calc-id`\):([^(]*)\(/m.exec(docs)?.[1] ?? '';
  return [...list.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? '');
}

function numberFields(calculator: CalculatorDefinition): NumberField[] {
  return calculator.fields.filter((field): field is NumberField => field.kind === 'number');
}

// Canonical keys that have a display alias: the widget shows the alias instead.
function aliasedKeys(calculator: CalculatorDefinition): Set<string> {
  return new Set(numberFields(calculator).flatMap((field) => (field.aliasOf ? [field.aliasOf] : [])));
}

/** What the widget sends with untouched defaults: the displayed fields only. */
function displayedDefaults(calculator: CalculatorDefinition, system: UnitSystem): FieldValues {
  const hidden = aliasedKeys(calculator);
  const values: FieldValues = {};
  for (const field of calculator.fields) {
    if (hidden.has(field.key)) continue;
    values[field.key] = field.kind === 'number' ? perSystem(field.default, system) : field.default;
  }
  return values;
}

/** Deterministic pseudo-random numbers (mulberry32) so failures reproduce. */
function randomSource(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const everySystem = calculators.flatMap((calculator) =>
  calculator.unitSystems.map((system) => ({ id: calculator.id, system, calculator })),
);

describe('catalogue', () => {
  test('the ids list follows the catalogue, and docs/embedding.md lists every id in that order', () => {
    expect(calculatorIds).toEqual(calculators.map((calculator) => calculator.id));
    expect(new Set(calculatorIds).size).toBe(calculators.length);
    expect(documentedIds()).toEqual([...calculatorIds]);
  });

  test('getCalculator finds every calculator by id', () => {
    for (const calculator of calculators) expect(getCalculator(calculator.id)).toBe(calculator);
  });

  test('getCalculator is safe for prototype and unknown ids', () => {
    for (const id of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '', 'BMI', 'bmi ']) {
      expect(getCalculator(id)).toBeUndefined();
    }
  });

  test('definitions are frozen, so no caller can change the shared catalogue', () => {
    const bmi = getCalculator('bmi');
    expect(Object.isFrozen(bmi)).toBe(true);
    expect(Object.isFrozen(bmi?.fields[0])).toBe(true);
    expect(() => (calculators as CalculatorDefinition[]).push(calculators[0] as CalculatorDefinition)).toThrow();
  });

  test('every calculator has a title, a description sentence and at least one unit system and result', () => {
    for (const calculator of calculators) {
      expect(calculator.title.length).toBeGreaterThan(0);
      expect(calculator.description).toMatch(/^[A-Z].{20,}\.$/);
      expect(['health', 'finance', 'everyday']).toContain(calculator.category);
      expect(calculator.unitSystems.length).toBeGreaterThan(0);
      expect(calculator.results.length).toBeGreaterThan(0);
    }
  });
});

describe.each(calculators.map((calculator) => [calculator.id, calculator] as const))(
  '%s definition',
  (_id, calculator) => {
    test('field keys and result keys are unique', () => {
      const fieldKeys = calculator.fields.map((field) => field.key);
      expect(new Set(fieldKeys).size).toBe(fieldKeys.length);
      const resultKeys = calculator.results.map((result) => result.key);
      expect(new Set(resultKeys).size).toBe(resultKeys.length);
    });

    test('every number default lies within min/max (min < max) in every unit system', () => {
      for (const system of calculator.unitSystems) {
        for (const field of numberFields(calculator)) {
          const min = perSystem(field.min, system);
          const max = perSystem(field.max, system);
          const fallback = perSystem(field.default, system);
          expect(Number.isFinite(min) && Number.isFinite(max)).toBe(true);
          expect(min).toBeLessThan(max);
          expect(fallback).toBeGreaterThanOrEqual(min);
          expect(fallback).toBeLessThanOrEqual(max);
        }
      }
    });

    test('every select default is one of its options, and option values are unique', () => {
      for (const field of calculator.fields) {
        if (field.kind !== 'select') continue;
        const values = field.options.map((option) => option.value);
        expect(values).toContain(field.default);
        expect(new Set(values).size).toBe(values.length);
      }
    });

    test('aliases point at a fixed-unit field whose range contains the converted alias range', () => {
      for (const alias of numberFields(calculator)) {
        if (!alias.aliasOf) continue;
        const canonical = numberFields(calculator).find((field) => field.key === alias.aliasOf);
        expect(canonical).toBeDefined();
        if (!canonical) continue;
        expect(typeof canonical.unit).toBe('string');
        expect(canonical.aliasOf).toBeUndefined();
        for (const system of calculator.unitSystems) {
          const from = perSystem(alias.unit ?? '', system);
          const to = perSystem(canonical.unit ?? '', system);
          const low = convertUnit(perSystem(alias.min, system), from, to);
          const high = convertUnit(perSystem(alias.max, system), from, to);
          expect(low).not.toBeNull();
          expect(high).not.toBeNull();
          expect(low ?? Number.NaN).toBeGreaterThanOrEqual(perSystem(canonical.min, system));
          expect(high ?? Number.NaN).toBeLessThanOrEqual(perSystem(canonical.max, system));
        }
      }
    });

    test('visibleIf refers to a select field and one of its options', () => {
      for (const field of numberFields(calculator)) {
        if (!field.visibleIf) continue;
        const { key, equals } = field.visibleIf;
        const controller = calculator.fields.find((candidate) => candidate.key === key);
        expect(controller?.kind).toBe('select');
        if (controller?.kind === 'select') expect(controller.options.map((option) => option.value)).toContain(equals);
      }
    });

    test('bands are ordered and contiguous, open at both ends', () => {
      for (const result of calculator.results) {
        const sets = [...(result.bands ? [result.bands] : []), ...Object.values(result.bandsBy?.bands ?? {})];
        for (const bands of sets) {
          expect(bands[0]?.min).toBeUndefined();
          expect(bands.at(-1)?.max).toBeUndefined();
          for (let i = 1; i < bands.length; i++) expect(bands[i]?.min).toBe(bands[i - 1]?.max as number);
        }
        if (result.bandsBy) {
          const controller = calculator.fields.find((field) => field.key === result.bandsBy?.key);
          expect(controller?.kind).toBe('select');
          if (controller?.kind === 'select') {
            expect(Object.keys(result.bandsBy.bands).sort()).toEqual(
              controller.options.map((option) => option.value).sort(),
            );
          }
        }
      }
    });

    test('the public form is JSON-serialisable and has no compute', () => {
      const publicForm = toPublic(calculator);
      expect('compute' in publicForm).toBe(false);
      expect(JSON.parse(JSON.stringify(publicForm))).toStrictEqual(publicForm);
      expect(JSON.stringify(publicForm)).toContain(`"fields":`);
    });
  },
);

describe.each(everySystem.map((entry) => [entry.id, entry.system, entry.calculator] as const))(
  '%s compute (%s)',
  (_id, system, calculator) => {
    test('the defaults give a finite number for every result key', () => {
      const result = calculator.compute(displayedDefaults(calculator, system), system);
      expect(result).not.toBeNull();
      expect(Object.keys(result ?? {}).sort()).toEqual(calculator.results.map((entry) => entry.key).sort());
      for (const value of Object.values(result ?? {})) expect(Number.isFinite(value)).toBe(true);
    });

    test('a missing, non-finite or out-of-range displayed field gives null', () => {
      const hidden = aliasedKeys(calculator);
      for (const field of numberFields(calculator)) {
        if (hidden.has(field.key)) continue;
        const base = displayedDefaults(calculator, system);
        // Make a conditional field count (body-fat hip shows for women).
        if (field.visibleIf) base[field.visibleIf.key] = field.visibleIf.equals;
        expect(calculator.compute(base, system)).not.toBeNull();
        const { [field.key]: _removed, ...missing } = base;
        const min = perSystem(field.min, system);
        const max = perSystem(field.max, system);
        for (const bad of [
          missing,
          { ...base, [field.key]: Number.NaN },
          { ...base, [field.key]: Number.POSITIVE_INFINITY },
        ]) {
          expect(calculator.compute(bad, system)).toBeNull();
        }
        expect(calculator.compute({ ...base, [field.key]: min - Math.max(1, Math.abs(min)) }, system)).toBeNull();
        expect(calculator.compute({ ...base, [field.key]: max + Math.max(1, Math.abs(max)) }, system)).toBeNull();
      }
      for (const field of calculator.fields) {
        if (field.kind !== 'select') continue;
        const base = displayedDefaults(calculator, system);
        expect(calculator.compute({ ...base, [field.key]: '__proto__' }, system)).toBeNull();
      }
    });

    test('random in-range inputs give null or finite results, never NaN or Infinity', () => {
      const random = randomSource(calculator.id.length * 7919 + (system === 'metric' ? 1 : 2));
      for (let run = 0; run < 300; run++) {
        const values: FieldValues = {};
        for (const field of calculator.fields) {
          if (field.kind === 'select') {
            values[field.key] = field.options[Math.floor(random() * field.options.length)]?.value ?? field.default;
          } else {
            const min = perSystem(field.min, system);
            const max = perSystem(field.max, system);
            // Hit the bounds themselves now and then.
            const pick = random();
            values[field.key] = pick < 0.1 ? min : pick > 0.9 ? max : min + random() * (max - min);
          }
        }
        const result = calculator.compute(values, system);
        for (const value of Object.values(result ?? {})) expect(Number.isFinite(value)).toBe(true);
      }
    });
  },
);

describe('bmi public definition', () => {
  const bmi = toPublic(getCalculator('bmi') as CalculatorDefinition);

  test('has exactly the four keys weightKg, heightCm, weight, height, with their meaning', () => {
    expect(bmi.fields.map((field) => field.key).sort()).toEqual(['height', 'heightCm', 'weight', 'weightKg']);
    for (const field of bmi.fields) expect(field.help?.length ?? 0).toBeGreaterThan(20);
    expect(bmi.unitSystems).toEqual(['metric', 'imperial']);
  });

  test('weightKg/heightCm are fixed kg/cm; weight/height alias them in the displayed units', () => {
    const byKey = new Map(bmi.fields.map((field) => [field.key, field]));
    expect(byKey.get('weightKg')).toMatchObject({ kind: 'number', unit: 'kg' });
    expect(byKey.get('heightCm')).toMatchObject({ kind: 'number', unit: 'cm' });
    expect(byKey.get('weight')).toMatchObject({ aliasOf: 'weightKg', unit: { metric: 'kg', imperial: 'lb' } });
    expect(byKey.get('height')).toMatchObject({ aliasOf: 'heightCm', unit: { metric: 'cm', imperial: 'in' } });
  });
});

describe('browser safety', () => {
  test('catalogue sources import only each other and use no Node or Bun APIs', async () => {
    const directory = new URL('../../../src/calculators/', import.meta.url);
    const names = [...new Bun.Glob('*.ts').scanSync(directory.pathname)];
    expect(names.length).toBeGreaterThanOrEqual(calculators.length + 2);
    for (const name of names) {
      const source = await Bun.file(new URL(name, directory)).text();
      for (const [, specifier] of source.matchAll(/\bfrom\s+'([^']+)'/g)) expect(specifier).toMatch(/^\.\/[\w-]+\.ts$/);
      expect(source).not.toMatch(/\b(?:process|Bun|require|Buffer)\s*[.(]|node:/);
    }
  });
});
