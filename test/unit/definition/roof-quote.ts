/**
 * A small valid definition that uses every kind of input, a variable, a table, bands and
 * visibleIf: the starting point that the definition tests change one rule at a time.
 */
import type { Definition } from '../../../src/definition/types.ts';

export function roofQuote(): Definition {
  return {
    id: 'roof-quote',
    title: { en: 'Roof quote', de: 'Dachangebot' },
    description: 'What a new roof costs, before a site visit.',
    inputs: [
      { kind: 'number', key: 'area', label: 'Roof area', unit: 'm²', min: 10, max: 1000, default: 120, step: 1 },
      {
        kind: 'select',
        key: 'material',
        label: 'Material',
        options: [
          { value: 'tiles', label: 'Tiles', number: 45 },
          { value: 'metal', label: 'Metal', number: 30 },
        ],
        default: 'tiles',
      },
      { kind: 'toggle', key: 'removal', label: 'Remove the old roof', default: false },
      {
        kind: 'number',
        key: 'layers',
        label: 'Old layers',
        min: 1,
        max: 3,
        default: 1,
        visibleIf: { key: 'removal', equals: true },
      },
    ],
    variables: [
      { key: 'base', formula: 'area * material' },
      { key: 'discount', formula: 'lookup(area, discounts)' },
    ],
    outputs: [
      {
        key: 'total',
        label: 'Total',
        formula: 'base * (1 - discount) + (removal ? 8 * area * layers : 0)',
        format: { style: 'currency', decimals: 0 },
        bands: [
          { upTo: 5000, label: 'Small job', tone: 'good' },
          { upTo: 20000, label: 'Medium job' },
          { label: 'Large job', tone: 'caution' },
        ],
      },
      { key: 'perSquareMetre', label: 'Per m²', formula: 'base / area', primary: true },
    ],
    tables: {
      discounts: [
        [0, 0],
        [200, 0.05],
        [500, 0.1],
      ],
    },
  };
}
