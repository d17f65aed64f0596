/**
 * The validator, one rule at a time: each test breaks one rule of a valid definition and
 * expects exactly the problem (path, message, and for a formula the position) an owner is
 * shown, the same text on the server, in the builder and in the CLI.
 */
import { describe, expect, test } from 'bun:test';
import type { Definition } from '../../../src/definition/types.ts';
import { validateDefinition } from '../../../src/definition/validate.ts';
import { roofQuote } from '../../fixtures/roof-quote.ts';

type Loose = Record<string, any>;

/** The problems of the definition after `change`. */
function problemsAfter(change: (definition: Loose) => void) {
  const definition = roofQuote() as Loose;
  change(definition);
  return validateDefinition(definition);
}

const numberInput = (key: string, extra: Loose = {}) => ({
  kind: 'number',
  key,
  label: key,
  min: 0,
  max: 10,
  default: 1,
  ...extra,
});

describe('a valid definition', () => {
  test('has no problems', () => {
    expect(validateDefinition(roofQuote())).toEqual([]);
  });

  test('with several problems lists them all, each with its path and, for formulas, its position', () => {
    const problems = problemsAfter((d) => {
      d.title = '';
      d.inputs[0].max = 100;
      d.variables[0].formula = 'area * materail';
      d.outputs[0].formula = 'base * (1 - discount';
      d.outputs[1].key = 'base';
    });
    expect(problems).toEqual([
      { path: 'title', message: 'must be 1 to 200 characters' },
      { path: 'outputs[1].key', message: '`base` is already the key of variables[0]' },
      { path: 'inputs[0].default', message: 'the default lies outside min to max' },
      { path: 'variables[0].formula', message: 'unknown name `materail` at 7', position: 7 },
      {
        path: 'outputs[0].formula',
        message: 'expected `)` but found the end of the formula at 20',
        position: 20,
      },
    ]);
  });

  test('never throws, whatever JSON arrives', () => {
    for (const value of [null, 0, 'x', [], {}, { inputs: {} }, { inputs: [null, 1, 'a'], outputs: [[]] }]) {
      expect(validateDefinition(value).length).toBeGreaterThan(0);
    }
    // Every place of a valid definition, given every kind of JSON value in turn.
    const places = (value: unknown, path: (string | number)[] = []): (string | number)[][] =>
      typeof value === 'object' && value !== null
        ? [path, ...Object.entries(value).flatMap(([key, child]) => places(child, [...path, key]))]
        : [path];
    const replacements = [null, 0, -1, 1e308, '', 'x', '__proto__', true, [], {}, [[]], { en: 1 }];
    let checked = 0;
    for (const path of places(roofQuote()).filter((p) => p.length > 0)) {
      for (const replacement of replacements) {
        const definition = roofQuote() as Loose;
        const parent = path.slice(0, -1).reduce((node, key) => node[key], definition);
        parent[path[path.length - 1] as string] = structuredClone(replacement);
        expect(Array.isArray(validateDefinition(definition))).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(500);
    const cyclic: Loose = roofQuote();
    cyclic.self = cyclic;
    expect(validateDefinition(cyclic)).toEqual([{ path: '', message: 'must be an object' }]);
  });
});

describe('shape', () => {
  test('a definition is at most 64 KiB of JSON', () => {
    const problems = problemsAfter((d) => {
      // Within every other limit: 50 inputs whose label and help are 200 characters in each language.
      const text = (char: string) =>
        Object.fromEntries(['en', 'de', 'fr', 'es', 'it', 'nl', 'pt', 'pl'].map((l) => [l, char.repeat(200)]));
      d.inputs = Array.from({ length: 50 }, (_, i) => numberInput(`n${i}`, { label: text('x'), help: text('é') }));
    });
    expect(problems).toHaveLength(1);
    expect(problems[0]?.message).toMatch(/^a definition has at most 65536 bytes of JSON \(64 KiB\); this one has \d+$/);
  });

  test('required fields are named', () => {
    const problems = problemsAfter((d) => {
      delete d.id;
      delete d.inputs[0].default;
      delete d.outputs[0].formula;
    });
    expect(problems.map((p) => [p.path, p.message])).toEqual([
      ['id', 'is required'],
      ['inputs[0].default', 'is required'],
      ['outputs[0].formula', 'is required'],
    ]);
  });

  test('unknown fields are refused, so a misspelt one is not silently ignored', () => {
    const problems = problemsAfter((d) => {
      d.inputs[3].visibleif = d.inputs[3].visibleIf;
      d.outputs[0].colour = 'red';
    });
    expect(problems.map((p) => [p.path, p.message])).toEqual([
      ['inputs[3].visibleif', 'unknown field `visibleif`'],
      ['outputs[0].colour', 'unknown field `colour`'],
    ]);
  });

  test('the id follows the calculator-id pattern', () => {
    expect(problemsAfter((d) => (d.id = 'Roof Quote'))).toEqual([
      { path: 'id', message: 'must be lower-case letters, digits and dashes (at most 64), not starting with a dash' },
    ]);
  });

  test('texts: 1 to 200 characters, or one per language of the widget with en', () => {
    const problems = problemsAfter((d) => {
      d.title = 'x'.repeat(201);
      d.description = { de: 'Dach' };
      d.inputs[0].label = { en: 'Area', xx: 'Fläche' };
      d.inputs[0].help = 42;
      d.outputs[0].bands[0].label = '';
    });
    expect(problems.map((p) => [p.path, p.message])).toEqual([
      ['title', 'must be 1 to 200 characters'],
      ['description.en', 'is required'],
      ['inputs[0].label.xx', '`xx` is not one of the languages en, de, fr, es, it, nl, pt, pl'],
      ['inputs[0].help', 'must be text: a string, or one string per language with `en`'],
      ['outputs[0].bands[0].label', 'must be 1 to 200 characters'],
    ]);
  });

  test('keys: a letter, then up to 39 letters, digits or _', () => {
    const problems = problemsAfter((d) => {
      d.inputs[0].key = '1area';
      d.variables[0].key = 'base-price';
      d.outputs[0].key = `t${'x'.repeat(40)}`;
    });
    expect(problems.filter((p) => p.message.startsWith('must be a letter')).map((p) => p.path)).toEqual([
      'inputs[0].key',
      'variables[0].key',
      'outputs[0].key',
    ]);
  });

  test('counts: 1–50 inputs, 1–20 outputs, 1–50 options, at most 50 variables', () => {
    const problems = problemsAfter((d) => {
      d.inputs = [];
      d.outputs = Array.from({ length: 21 }, (_, i) => ({ key: `o${i}`, label: 'O', formula: '1' }));
      d.variables = Array.from({ length: 51 }, (_, i) => ({ key: `v${i}`, formula: '1' }));
    });
    expect(problems.map((p) => [p.path, p.message])).toEqual([
      ['inputs', 'holds 1 to 50 items'],
      ['variables', 'holds at most 50 items'],
      ['outputs', 'holds 1 to 20 items'],
    ]);
    expect(problemsAfter((d) => (d.inputs[1].options = []))).toEqual([
      { path: 'inputs[1].options', message: 'holds 1 to 50 items' },
      { path: 'inputs[1].default', message: 'must be one of the option values' },
    ]);
  });

  test('kinds, styles and tones are one of their names', () => {
    const problems = problemsAfter((d) => {
      d.inputs[0].kind = 'slider';
      d.outputs[0].format.style = 'euro';
      d.outputs[0].bands[0].tone = 'green';
    });
    expect(problems.map((p) => [p.path, p.message])).toEqual([
      ['inputs[0].kind', 'must be one of `number`, `select`, `toggle`'],
      ['outputs[0].format.style', 'must be one of `number`, `currency`, `percent`'],
      ['outputs[0].bands[0].tone', 'must be one of `good`, `caution`, `risk`'],
      // An input of unknown kind is not there for formulas either.
      ['variables[0].formula', 'unknown name `area` at 0'],
      ['variables[1].formula', 'unknown name `area` at 7'],
      ['outputs[0].formula', 'unknown name `area` at 39'],
      ['outputs[1].formula', 'unknown name `area` at 7'],
    ]);
  });

  test('numbers, steps, decimals and booleans', () => {
    const problems = problemsAfter((d) => {
      d.inputs[0].min = '10';
      d.inputs[0].step = 0;
      d.inputs[2].default = 'no';
      d.outputs[0].format.decimals = 7;
      d.outputs[1].primary = 'yes';
    });
    expect(problems.map((p) => [p.path, p.message])).toEqual([
      ['inputs[0].min', 'must be a number'],
      ['inputs[0].step', 'must be above 0'],
      ['inputs[2].default', 'must be true or false'],
      ['outputs[0].format.decimals', 'must be a whole number from 0 to 6'],
      ['outputs[1].primary', 'must be true or false'],
    ]);
  });

  test('a per-system value names both systems', () => {
    expect(problemsAfter((d) => (d.inputs[0].max = { metric: 1000 }))).toEqual([
      { path: 'inputs[0].max.imperial', message: 'is required' },
    ]);
  });

  test('unit systems: metric and imperial, each once', () => {
    expect(problemsAfter((d) => (d.unitSystems = ['metric', 'metric']))).toEqual([
      { path: 'unitSystems', message: 'lists a unit system twice' },
    ]);
    expect(problemsAfter((d) => (d.unitSystems = ['si']))).toEqual([
      { path: 'unitSystems[0]', message: 'must be one of `metric`, `imperial`' },
    ]);
  });

  test('tables: named like keys, 1–200 rows of [threshold, value]', () => {
    const problems = problemsAfter((d) => {
      d.tables.discounts[1] = [200];
      d.tables['2nd'] = Array.from({ length: 201 }, (_, i) => [i, i]);
    });
    expect(problems.map((p) => [p.path, p.message])).toEqual([
      ['tables.discounts[1]', 'must be a row [threshold, value]'],
      ['tables["2nd"]', 'must be a letter, then up to 39 letters, digits or _'],
      ['tables["2nd"]', 'holds 1 to 200 items'],
      // A table with a broken row is not there for formulas either.
      ['variables[1].formula', 'unknown table `discounts` at 13'],
    ]);
  });
});

describe('keys', () => {
  test('are unique across inputs, variables and outputs', () => {
    expect(problemsAfter((d) => (d.variables[1].key = 'area'))).toEqual([
      { path: 'variables[1].key', message: '`area` is already the key of inputs[0]' },
      // Renamed, the variable is gone under its old name.
      { path: 'outputs[0].formula', message: 'unknown name `discount` at 12', position: 12 },
    ]);
  });

  test('`imperial` and function names are not keys', () => {
    const problems = problemsAfter((d) => {
      d.inputs.push(numberInput('imperial'), numberInput('round'));
    });
    expect(problems).toEqual([
      { path: 'inputs[4].key', message: '`imperial` is reserved for the displayed unit system' },
      { path: 'inputs[5].key', message: '`round` is the name of a function' },
    ]);
  });
});

describe('formulas', () => {
  const formulaProblems = (change: (d: Loose) => void) =>
    problemsAfter(change).filter((problem) => problem.path.endsWith('.formula'));

  test('each must parse, with the place of the first problem', () => {
    expect(formulaProblems((d) => (d.outputs[1].formula = 'base / area)'))).toEqual([
      { path: 'outputs[1].formula', message: 'unexpected `)` at 11', position: 11 },
    ]);
  });

  test('a variable uses inputs and earlier variables only: no cycle can form', () => {
    expect(
      formulaProblems((d) => {
        d.variables[0].formula = 'discount * area';
        d.variables[1].formula = 'discount + 1';
      }),
    ).toEqual([
      {
        path: 'variables[0].formula',
        message: '`discount` comes later: a variable may use only inputs and earlier variables at 0',
        position: 0,
      },
      { path: 'variables[1].formula', message: '`discount` cannot use itself at 0', position: 0 },
    ]);
  });

  test('outputs are not names in formulas', () => {
    expect(formulaProblems((d) => (d.outputs[1].formula = 'total / area'))).toEqual([
      {
        path: 'outputs[1].formula',
        message: '`total` is an output: formulas use inputs and variables at 0',
        position: 0,
      },
    ]);
  });

  test('a select is a number in formulas only when every option has one', () => {
    expect(formulaProblems((d) => delete d.inputs[1].options[1].number)).toEqual([
      {
        path: 'variables[0].formula',
        message: '`material` is a select with an option that has no number, so formulas cannot use it at 7',
        position: 7,
      },
    ]);
  });

  test('a display alias is not a name: formulas use the input it stands for', () => {
    expect(
      formulaProblems((d) => {
        d.unitSystems = ['metric', 'imperial'];
        d.inputs.push(
          numberInput('lengthCm', { unit: 'cm' }),
          numberInput('length', { unit: { metric: 'cm', imperial: 'in' }, aliasOf: 'lengthCm' }),
        );
        d.outputs[1].formula = 'length + lengthCm';
      }),
    ).toEqual([
      {
        path: 'outputs[1].formula',
        message: '`length` is the display form of `lengthCm`: formulas use `lengthCm` at 0',
        position: 0,
      },
    ]);
  });

  test('`imperial` is a name only where imperial is a unit system', () => {
    expect(formulaProblems((d) => (d.outputs[1].formula = 'imperial ? 1 : 2'))).toEqual([
      {
        path: 'outputs[1].formula',
        message: '`imperial` is known only when unitSystems includes imperial at 0',
        position: 0,
      },
    ]);
    expect(
      formulaProblems((d) => {
        d.outputs[1].formula = 'imperial ? 1 : 2';
        d.unitSystems = ['metric', 'imperial'];
      }),
    ).toEqual([]);
  });

  test('tables only as the second argument of lookup; functions with their arity', () => {
    expect(
      formulaProblems((d) => {
        d.variables[1].formula = 'discounts * 2';
        d.outputs[1].formula = 'lookup(area, prices) + round(1, 2, 3)';
      }),
    ).toEqual([
      {
        path: 'variables[1].formula',
        message: '`discounts` is a table: use it as the second argument of lookup at 0',
        position: 0,
      },
      { path: 'outputs[1].formula', message: '`round` takes 1 or 2 arguments at 23', position: 23 },
    ]);
  });

  test('every formula is checked, even while other fields have problems', () => {
    const problems = problemsAfter((d) => {
      d.title = 42;
      d.inputs[0].label = '';
      d.outputs[1].formula = 'bse / area';
    });
    expect(problems.map((p) => p.path)).toEqual(['title', 'inputs[0].label', 'outputs[1].formula']);
  });
});

describe('inputs', () => {
  test('min is not above max, and the default lies between, in each unit system', () => {
    const problems = problemsAfter((d) => {
      d.unitSystems = ['metric', 'imperial'];
      d.inputs[0].min = { metric: 10, imperial: 2000 };
      d.inputs[3].default = 4;
    });
    expect(problems).toEqual([
      { path: 'inputs[0].min', message: 'min is above max (imperial)' },
      { path: 'inputs[3].default', message: 'the default lies outside min to max (metric)' },
      { path: 'inputs[3].default', message: 'the default lies outside min to max (imperial)' },
    ]);
  });

  test('option values are unique, and a select defaults to one of them', () => {
    const problems = problemsAfter((d) => {
      d.inputs[1].options[1].value = 'tiles';
      d.inputs[1].default = 'slate';
    });
    expect(problems).toEqual([
      { path: 'inputs[1].options[1].value', message: 'the option value `tiles` appears twice' },
      { path: 'inputs[1].default', message: 'must be one of the option values' },
    ]);
  });

  test('visibleIf names an earlier select or toggle input, and one of its values', () => {
    const cases: [(d: Loose) => void, string, string][] = [
      [
        (d) => (d.inputs[3].visibleIf.key = 'area'),
        'inputs[3].visibleIf.key',
        'must name an earlier select or toggle input',
      ],
      [
        (d) => (d.inputs[3].visibleIf.key = 'nothing'),
        'inputs[3].visibleIf.key',
        'must name an earlier select or toggle input',
      ],
      [
        (d) => (d.inputs[0].visibleIf = { key: 'removal', equals: true }),
        'inputs[0].visibleIf.key',
        'must name an earlier select or toggle input',
      ],
      [
        (d) => (d.inputs[3].visibleIf.equals = 'yes'),
        'inputs[3].visibleIf.equals',
        'must be true or false, as that input is a toggle',
      ],
      [
        (d) => (d.inputs[3].visibleIf = { key: 'material', equals: 'slate' }),
        'inputs[3].visibleIf.equals',
        'must be one of the option values of that select',
      ],
    ];
    for (const [change, path, message] of cases) expect(problemsAfter(change)).toEqual([{ path, message }]);
    expect(problemsAfter((d) => (d.inputs[3].visibleIf = { key: 'material', equals: 'metal' }))).toEqual([]);
  });

  describe('aliasOf', () => {
    const withPair = (d: Loose, alias: Loose = {}, canonical: Loose = {}) => {
      d.unitSystems = ['metric', 'imperial'];
      d.inputs.push(
        numberInput('weightKg', { unit: 'kg', ...canonical }),
        numberInput('weight', { unit: { metric: 'kg', imperial: 'lb' }, aliasOf: 'weightKg', ...alias }),
      );
    };

    test('names another number input whose unit converts', () => {
      expect(problemsAfter((d) => withPair(d))).toEqual([]);
      expect(problemsAfter((d) => withPair(d, { aliasOf: 'material' }))).toEqual([
        {
          path: 'inputs[5].aliasOf',
          message: 'must name another number input, one that is not a display alias itself',
        },
      ]);
      expect(problemsAfter((d) => withPair(d, { aliasOf: 'weight' }))).toEqual([
        {
          path: 'inputs[5].aliasOf',
          message: 'must name another number input, one that is not a display alias itself',
        },
      ]);
      expect(problemsAfter((d) => withPair(d, { unit: { metric: 'kg', imperial: 'in' } }))).toEqual([
        {
          path: 'inputs[5].aliasOf',
          message: 'must convert to the unit of the input it stands for (kg and lb, cm and in) (imperial)',
        },
      ]);
    });

    test('one alias per input, shown under the same condition', () => {
      const problems = problemsAfter((d) => {
        withPair(d, { visibleIf: { key: 'removal', equals: true } });
        d.inputs.push(numberInput('mass', { unit: 'lb', aliasOf: 'weightKg' }));
      });
      expect(problems).toEqual([
        { path: 'inputs[5].visibleIf', message: 'must be the same as on the input this alias stands for' },
        { path: 'inputs[6].aliasOf', message: 'names an input that already has a display alias' },
      ]);
    });
  });
});

describe('outputs', () => {
  test('bands rise, and only the last may leave out upTo', () => {
    const problems = problemsAfter((d) => {
      d.outputs[0].bands = [{ upTo: 5000, label: 'a' }, { label: 'b' }, { upTo: 4000, label: 'c' }, { label: 'd' }];
    });
    expect(problems).toEqual([{ path: 'outputs[0].bands[1]', message: 'only the last band may leave out upTo' }]);
    expect(problemsAfter((d) => (d.outputs[0].bands[1].upTo = 5000))).toEqual([
      { path: 'outputs[0].bands[1].upTo', message: "must be above the previous band's upTo" },
    ]);
  });

  test('bandsBy names a select and gives bands for each of its options, and no others', () => {
    const good = { upTo: 1, label: 'low' };
    expect(
      problemsAfter((d) => (d.outputs[1].bandsBy = { key: 'material', bands: { tiles: [good], metal: [good] } })),
    ).toEqual([]);
    const problems = problemsAfter((d) => {
      d.outputs[1].bandsBy = { key: 'material', bands: { tiles: [good], slate: [good] } };
      d.outputs[0].bandsBy = { key: 'area', bands: {} };
    });
    expect(problems).toEqual([
      { path: 'outputs[0]', message: 'bands and bandsBy cannot both be given' },
      { path: 'outputs[0].bandsBy.key', message: 'must name a select input' },
      { path: 'outputs[1].bandsBy.bands', message: 'has no bands for the option `metal`' },
      { path: 'outputs[1].bandsBy.bands.slate', message: '`slate` is not an option of that select' },
    ]);
  });

  test('at most one output is primary', () => {
    expect(problemsAfter((d) => (d.outputs[0].primary = true))).toEqual([
      { path: 'outputs[1].primary', message: 'only one output may be primary' },
    ]);
  });

  test('a unit goes with the number style', () => {
    expect(problemsAfter((d) => (d.outputs[0].format.unit = 'EUR'))).toEqual([
      {
        path: 'outputs[0].format.unit',
        message: 'goes with the number style only: currency and percent bring their own sign',
      },
    ]);
  });
});

describe('tables', () => {
  test('thresholds rise strictly', () => {
    expect(problemsAfter((d) => (d.tables.discounts[2][0] = 200))).toEqual([
      { path: 'tables.discounts[2]', message: 'the threshold must be above the one of the row before' },
    ]);
  });

  test('a table name is not a key, a function or `imperial`', () => {
    const problems = problemsAfter((d) => {
      d.tables.area = [[0, 1]];
      d.tables.max = [[0, 1]];
    });
    expect(problems).toEqual([
      { path: 'tables.area', message: '`area` is already the key of an input, variable or output' },
      { path: 'tables.max', message: '`max` is the name of a function' },
    ]);
  });
});

test('the roof quote is a Definition as the types say', () => {
  const definition: Definition = roofQuote();
  expect(definition.inputs).toHaveLength(4);
});
