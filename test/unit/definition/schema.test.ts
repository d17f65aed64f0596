/**
 * The TypeBox schema (which the OpenAPI document shows) and the hand-written validator
 * (which the builder and the CLI run) describe one shape: valid definitions pass both,
 * and each break of the shape fails both, the validator naming the place.
 */
import { describe, expect, test } from 'bun:test';
import { Value } from '@sinclair/typebox/value';
import { templates } from '../../../src/calculators/templates/index.ts';
import { Definition } from '../../../src/definition/schema.ts';
import { validateDefinition } from '../../../src/definition/validate.ts';
import { roofQuote } from '../../fixtures/roof-quote.ts';

type Loose = Record<string, any>;

const valid: [string, unknown][] = [
  ['roof-quote', roofQuote()],
  ...templates.map((template) => [template.definition.id, template.definition] as [string, unknown]),
  [
    'the least',
    {
      id: 'a',
      title: 'A',
      inputs: [{ kind: 'toggle', key: 'on', label: 'On', default: true }],
      outputs: [{ key: 'x', label: 'X', formula: 'on' }],
    },
  ],
];

// Each: where the shape breaks, and how.
const breaks: [path: string, change: (d: Loose) => void][] = [
  ['extra', (d) => (d.extra = 1)],
  ['id', (d) => delete d.id],
  ['id', (d) => (d.id = '-roof')],
  ['id', (d) => (d.id = 'r'.repeat(65))],
  ['title', (d) => (d.title = '')],
  ['title', (d) => (d.title = 't'.repeat(201))],
  ['title', (d) => (d.title = 7)],
  ['title.en', (d) => (d.title = { de: 'Dach' })],
  ['title.fi', (d) => (d.title = { en: 'Roof', fi: 'Katto' })],
  ['title.de', (d) => (d.title = { en: 'Roof', de: '' })],
  ['description', (d) => (d.description = null)],
  ['inputs', (d) => (d.inputs = [])],
  [
    'inputs',
    (d) =>
      (d.inputs = Array.from({ length: 51 }, (_, i) => ({ kind: 'toggle', key: `t${i}`, label: 'T', default: false }))),
  ],
  ['inputs', (d) => (d.inputs = {})],
  ['inputs[0]', (d) => (d.inputs[0] = 'area')],
  ['inputs[0].kind', (d) => (d.inputs[0].kind = 'range')],
  ['inputs[0].key', (d) => (d.inputs[0].key = 'a b')],
  ['inputs[0].key', (d) => (d.inputs[0].key = `k${'x'.repeat(40)}`)],
  ['inputs[0].label', (d) => delete d.inputs[0].label],
  ['inputs[0].help', (d) => (d.inputs[0].help = ['help'])],
  ['inputs[0].min', (d) => (d.inputs[0].min = '0')],
  ['inputs[0].max.imperial', (d) => (d.inputs[0].max = { metric: 5 })],
  ['inputs[0].default.si', (d) => (d.inputs[0].default = { metric: 5, imperial: 5, si: 5 })],
  ['inputs[0].step', (d) => (d.inputs[0].step = 0)],
  ['inputs[0].step', (d) => (d.inputs[0].step = -1)],
  ['inputs[0].unit', (d) => (d.inputs[0].unit = 5)],
  ['inputs[0].unit.imperial', (d) => (d.inputs[0].unit = { metric: 'm²' })],
  ['inputs[0].aliasOf', (d) => (d.inputs[0].aliasOf = '')],
  ['inputs[0].options', (d) => (d.inputs[0].options = [])],
  ['inputs[1].options', (d) => (d.inputs[1].options = [])],
  [
    'inputs[1].options',
    (d) => (d.inputs[1].options = Array.from({ length: 51 }, (_, i) => ({ value: `${i}`, label: 'O' }))),
  ],
  ['inputs[1].options[0].value', (d) => (d.inputs[1].options[0].value = '')],
  ['inputs[1].options[0].value', (d) => (d.inputs[1].options[0].value = 'v'.repeat(101))],
  ['inputs[1].options[0].number', (d) => (d.inputs[1].options[0].number = '45')],
  ['inputs[1].options[0].colour', (d) => (d.inputs[1].options[0].colour = 'red')],
  ['inputs[1].default', (d) => (d.inputs[1].default = 1)],
  ['inputs[1].min', (d) => (d.inputs[1].min = 1)],
  ['inputs[2].default', (d) => (d.inputs[2].default = 'false')],
  ['inputs[3].visibleIf.equals', (d) => (d.inputs[3].visibleIf.equals = 1)],
  ['inputs[3].visibleIf.key', (d) => delete d.inputs[3].visibleIf.key],
  ['variables', (d) => (d.variables = Array.from({ length: 51 }, (_, i) => ({ key: `v${i}`, formula: '1' })))],
  ['variables[0].formula', (d) => (d.variables[0].formula = 12)],
  ['variables[0].formula', (d) => (d.variables[0].formula = '')],
  ['variables[0].formula', (d) => (d.variables[0].formula = `1${' '.repeat(1000)}`)],
  ['variables[0].key', (d) => delete d.variables[0].key],
  ['outputs', (d) => (d.outputs = [])],
  ['outputs', (d) => (d.outputs = Array.from({ length: 21 }, (_, i) => ({ key: `o${i}`, label: 'O', formula: '1' })))],
  ['outputs[0].format.style', (d) => (d.outputs[0].format.style = 'money')],
  ['outputs[0].format.decimals', (d) => (d.outputs[0].format.decimals = 7)],
  ['outputs[0].format.decimals', (d) => (d.outputs[0].format.decimals = 1.5)],
  ['outputs[0].format.decimals', (d) => delete d.outputs[0].format.decimals],
  ['outputs[0].bands', (d) => (d.outputs[0].bands = [])],
  ['outputs[0].bands', (d) => (d.outputs[0].bands = Array.from({ length: 21 }, (_, i) => ({ upTo: i, label: 'B' })))],
  ['outputs[0].bands[0].upTo', (d) => (d.outputs[0].bands[0].upTo = '5000')],
  ['outputs[0].bands[0].tone', (d) => (d.outputs[0].bands[0].tone = 'bad')],
  ['outputs[0].bands[0].label', (d) => delete d.outputs[0].bands[0].label],
  ['outputs[1].bandsBy.bands', (d) => (d.outputs[1].bandsBy = { key: 'material', bands: [] })],
  ['outputs[1].bandsBy.bands.tiles', (d) => (d.outputs[1].bandsBy = { key: 'material', bands: { tiles: [] } })],
  ['outputs[1].primary', (d) => (d.outputs[1].primary = 1)],
  ['tables', (d) => (d.tables = [])],
  ['tables', (d) => (d.tables = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`t${i}`, [[0, 1]]])))],
  ['tables.discounts', (d) => (d.tables.discounts = [])],
  ['tables.discounts', (d) => (d.tables.discounts = Array.from({ length: 201 }, (_, i) => [i, i]))],
  ['tables.discounts[0]', (d) => (d.tables.discounts[0] = [0, 0, 0])],
  ['tables.discounts[0]', (d) => (d.tables.discounts[0] = [0, '0'])],
  ['tables["2x"]', (d) => (d.tables['2x'] = [[0, 1]])],
  ['unitSystems', (d) => (d.unitSystems = [])],
  ['unitSystems', (d) => (d.unitSystems = ['metric', 'metric'])],
  ['unitSystems[0]', (d) => (d.unitSystems = ['si'])],
];

describe('schema and validator agree', () => {
  test.each(valid)('%s passes both', (_, definition) => {
    expect([...Value.Errors(Definition, definition)].map((error) => `${error.path}: ${error.message}`)).toEqual([]);
    expect(validateDefinition(definition)).toEqual([]);
  });

  test.each(breaks.map(([path, change], i) => [`${i}: ${path || '(root)'}`, path, change] as const))(
    'break %s fails both',
    (_, path, change) => {
      const definition = structuredClone(roofQuote()) as Loose;
      change(definition);
      expect(Value.Check(Definition, definition)).toBe(false);
      expect(validateDefinition(definition).map((problem) => problem.path)).toContain(path);
    },
  );
});
