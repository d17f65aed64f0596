import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'bun:test';
import { calculatorIds, catalogueCalculator, getTemplate, templates } from '../../../src/calculators/index.ts';
import { perSystem } from '../../../src/definition/systems.ts';
import type { Definition, NumberInput, UnitSystem } from '../../../src/definition/types.ts';
import { convertUnit } from '../../../src/definition/units.ts';
import { ROOT } from '../../helpers/process.ts';
import { catalogue } from './support/catalogue.ts';

/** The ids docs/embedding.md lists for `data-calc-id`, in the order it gives them. */
function documentedIds(): string[] {
  const docs = readFileSync(join(ROOT, 'docs', 'embedding.md'), 'utf8');
  const list = /^Calculators \(`data-calc-id`\):([^(]*)\(/m.exec(docs)?.[1] ?? '';
  return [...list.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? '');
}

function numberInputs(definition: Definition): NumberInput[] {
  return definition.inputs.filter((input): input is NumberInput => input.kind === 'number');
}

// Canonical keys that have a display alias: the widget shows the alias instead.
function aliasedKeys(definition: Definition): Set<string> {
  return new Set(numberInputs(definition).flatMap((input) => (input.aliasOf ? [input.aliasOf] : [])));
}

/** What the widget sends with untouched defaults: the displayed inputs only. */
function displayedDefaults(definition: Definition, system: UnitSystem): Record<string, unknown> {
  const hidden = aliasedKeys(definition);
  const values: Record<string, unknown> = {};
  for (const input of definition.inputs) {
    if (hidden.has(input.key)) continue;
    values[input.key] = input.kind === 'number' ? perSystem(input.default, system) : input.default;
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

const systemsOf = (definition: Definition): UnitSystem[] => definition.unitSystems ?? ['metric'];
const definitions = templates.map((template) => template.definition);
const everySystem = definitions.flatMap((definition) =>
  systemsOf(definition).map((system) => ({ id: definition.id, system, definition })),
);

describe('catalogue', () => {
  test('the ids list follows the templates, and docs/embedding.md lists every id in that order', () => {
    expect(calculatorIds).toEqual(definitions.map((definition) => definition.id));
    expect(new Set(calculatorIds).size).toBe(templates.length);
    expect(documentedIds()).toEqual([...calculatorIds]);
  });

  test('getTemplate finds every template by id', () => {
    for (const template of templates) expect(getTemplate(template.definition.id)).toBe(template);
  });

  test('getTemplate is safe for prototype and unknown ids', () => {
    for (const id of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '', 'BMI', 'bmi ']) {
      expect(getTemplate(id)).toBeUndefined();
    }
  });

  test('templates are deep-frozen, so no caller can change the shared catalogue', () => {
    const bmi = getTemplate('bmi');
    expect(Object.isFrozen(bmi)).toBe(true);
    expect(Object.isFrozen(bmi?.definition.inputs[0])).toBe(true);
    expect(Object.isFrozen(bmi?.definition.outputs[0]?.bands?.[0])).toBe(true);
    expect(() => (templates as unknown[]).push(templates[0])).toThrow();
  });

  test('every calculator has a title, a description sentence, a category and at least one output', () => {
    for (const template of templates) {
      const { title, description, outputs } = template.definition;
      expect(typeof title === 'string' && title.length > 0).toBe(true);
      expect(description).toMatch(/^[A-Z].{20,}\.$/);
      expect(['health', 'finance', 'everyday']).toContain(template.category);
      expect(outputs.length).toBeGreaterThan(0);
    }
  });
});

describe.each(templates.map((template) => [template.definition.id, template] as const))(
  '%s definition',
  (_id, template) => {
    const { definition } = template;

    test('input keys and output keys are unique', () => {
      const inputKeys = definition.inputs.map((input) => input.key);
      expect(new Set(inputKeys).size).toBe(inputKeys.length);
      const outputKeys = definition.outputs.map((output) => output.key);
      expect(new Set(outputKeys).size).toBe(outputKeys.length);
    });

    test('every number default lies within min/max (min < max) in every unit system', () => {
      for (const system of systemsOf(definition)) {
        for (const input of numberInputs(definition)) {
          const min = perSystem(input.min, system);
          const max = perSystem(input.max, system);
          const fallback = perSystem(input.default, system);
          expect(Number.isFinite(min) && Number.isFinite(max)).toBe(true);
          expect(min).toBeLessThan(max);
          expect(fallback).toBeGreaterThanOrEqual(min);
          expect(fallback).toBeLessThanOrEqual(max);
        }
      }
    });

    test('every select default is one of its options, and option values are unique', () => {
      for (const input of definition.inputs) {
        if (input.kind !== 'select') continue;
        const values = input.options.map((option) => option.value);
        expect(values).toContain(input.default);
        expect(new Set(values).size).toBe(values.length);
      }
    });

    test('aliases point at a fixed-unit input whose range contains the converted alias range', () => {
      for (const alias of numberInputs(definition)) {
        if (!alias.aliasOf) continue;
        const canonical = numberInputs(definition).find((input) => input.key === alias.aliasOf);
        expect(canonical).toBeDefined();
        if (!canonical) continue;
        expect(typeof canonical.unit).toBe('string');
        expect(canonical.aliasOf).toBeUndefined();
        for (const system of systemsOf(definition)) {
          const from = String(perSystem(alias.unit ?? '', system));
          const to = String(perSystem(canonical.unit ?? '', system));
          const low = convertUnit(perSystem(alias.min, system), from, to);
          const high = convertUnit(perSystem(alias.max, system), from, to);
          expect(low).not.toBeNull();
          expect(high).not.toBeNull();
          expect(low ?? Number.NaN).toBeGreaterThanOrEqual(perSystem(canonical.min, system));
          expect(high ?? Number.NaN).toBeLessThanOrEqual(perSystem(canonical.max, system));
        }
      }
    });

    test('visibleIf refers to a select input and one of its options', () => {
      for (const input of definition.inputs) {
        if (!input.visibleIf) continue;
        const { key, equals } = input.visibleIf;
        expect(typeof equals).toBe('string');
        const controller = definition.inputs.find((candidate) => candidate.key === key);
        expect(controller?.kind).toBe('select');
        if (controller?.kind === 'select')
          expect(controller.options.map((option) => option.value)).toContain(String(equals));
      }
    });

    test('the public bands are ordered and contiguous, open at both ends; bandsBy covers its select', () => {
      for (const result of catalogueCalculator(template).results) {
        const sets = [...(result.bands ? [result.bands] : []), ...Object.values(result.bandsBy?.bands ?? {})];
        for (const bands of sets) {
          expect(bands[0]?.min).toBeUndefined();
          expect(bands.at(-1)?.max).toBeUndefined();
          for (let i = 1; i < bands.length; i++) expect(bands[i]?.min).toBe(bands[i - 1]?.max as number);
        }
      }
      for (const output of definition.outputs) {
        if (!output.bandsBy) continue;
        const controller = definition.inputs.find((input) => input.key === output.bandsBy?.key);
        expect(controller?.kind).toBe('select');
        if (controller?.kind === 'select') {
          expect(Object.keys(output.bandsBy.bands).sort()).toEqual(
            controller.options.map((option) => option.value).sort(),
          );
        }
      }
    });

    test('the public form is JSON and carries the definition beside the fields', () => {
      const publicForm = catalogueCalculator(template);
      expect(JSON.parse(JSON.stringify(publicForm))).toStrictEqual(publicForm);
      expect(JSON.stringify(publicForm)).toContain(`"fields":`);
      expect(publicForm.definition).toBe(definition);
    });
  },
);

describe.each(everySystem.map((entry) => [entry.id, entry.system, entry.definition] as const))(
  '%s compute (%s)',
  (id, system, definition) => {
    const { compute } = catalogue(id);

    test('the defaults give a finite number for every output key', () => {
      const result = compute(displayedDefaults(definition, system), system);
      expect(result).not.toBeNull();
      expect(Object.keys(result ?? {}).sort()).toEqual(definition.outputs.map((output) => output.key).sort());
      for (const value of Object.values(result ?? {})) expect(Number.isFinite(value)).toBe(true);
    });

    test('a missing, non-finite or out-of-range displayed input gives null', () => {
      const hidden = aliasedKeys(definition);
      for (const input of numberInputs(definition)) {
        if (hidden.has(input.key)) continue;
        const base = displayedDefaults(definition, system);
        // Make a conditional input count (body-fat hip shows for women).
        if (input.visibleIf) base[input.visibleIf.key] = input.visibleIf.equals;
        expect(compute(base, system)).not.toBeNull();
        const { [input.key]: _removed, ...missing } = base;
        const min = perSystem(input.min, system);
        const max = perSystem(input.max, system);
        for (const bad of [
          missing,
          { ...base, [input.key]: Number.NaN },
          { ...base, [input.key]: Number.POSITIVE_INFINITY },
        ]) {
          expect(compute(bad, system)).toBeNull();
        }
        expect(compute({ ...base, [input.key]: min - Math.max(1, Math.abs(min)) }, system)).toBeNull();
        expect(compute({ ...base, [input.key]: max + Math.max(1, Math.abs(max)) }, system)).toBeNull();
      }
      for (const input of definition.inputs) {
        if (input.kind !== 'select') continue;
        const base = displayedDefaults(definition, system);
        expect(compute({ ...base, [input.key]: '__proto__' }, system)).toBeNull();
      }
    });

    test('random in-range inputs give null or finite results, never NaN or Infinity', () => {
      const random = randomSource(id.length * 7919 + (system === 'metric' ? 1 : 2));
      for (let run = 0; run < 300; run++) {
        const values: Record<string, unknown> = {};
        for (const input of definition.inputs) {
          if (input.kind === 'select') {
            values[input.key] = input.options[Math.floor(random() * input.options.length)]?.value ?? input.default;
          } else if (input.kind === 'toggle') {
            values[input.key] = random() < 0.5;
          } else {
            const min = perSystem(input.min, system);
            const max = perSystem(input.max, system);
            // Hit the bounds themselves now and then.
            const pick = random();
            values[input.key] = pick < 0.1 ? min : pick > 0.9 ? max : min + random() * (max - min);
          }
        }
        const result = compute(values, system);
        for (const value of Object.values(result ?? {})) expect(value === null || Number.isFinite(value)).toBe(true);
      }
    });
  },
);

describe('bmi public definition', () => {
  const template = getTemplate('bmi');
  if (!template) throw new Error('no bmi template');
  const bmi = catalogueCalculator(template);

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
  test('catalogue sources import only the catalogue and the definition format, and use no Node or Bun APIs', async () => {
    const directory = join(ROOT, 'src', 'calculators');
    // The catalogue's TypeBox schema (server and CLI only): the others may take types from it, never values.
    const serverOnly = join(directory, 'schema.ts');
    const names = [...new Bun.Glob('**/*.ts').scanSync(directory)].filter(
      (name) => join(directory, name) !== serverOnly,
    );
    expect(names.length).toBeGreaterThanOrEqual(templates.length + 2);
    for (const name of names) {
      const source = await Bun.file(join(directory, name)).text();
      for (const [, type, specifier] of source.matchAll(/\bimport\s+(type\s+)?[^;]*?\bfrom\s+'([^']+)'/g)) {
        // A type-only import leaves nothing in a bundle; any other stays within the catalogue and the format.
        if (type !== undefined) continue;
        const target = join(directory, name, '..', specifier ?? '');
        expect(target).toMatch(/[\\/]src[\\/](calculators|definition)[\\/][\w/-]+\.ts$/);
        expect(target).not.toBe(serverOnly);
      }
      expect(source).not.toMatch(/\b(?:process|Bun|require|Buffer)\s*[.(]|node:/);
    }
  });
});
