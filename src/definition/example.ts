import { Definition as DefinitionSchema } from './schema.ts';
import type { Definition } from './types.ts';

/**
 * A complete small calculator: the API reference's example of a definition (and of a
 * refusal, made from it). Every kind of input, a variable, a table, a format, bands.
 */
export const EXAMPLE_DEFINITION: Definition = {
  id: 'paint-quote',
  title: { en: 'Painting quote', de: 'Malerangebot' },
  description: 'What painting a room costs, before a site visit.',
  inputs: [
    { kind: 'number', key: 'area', label: 'Wall area', unit: 'm²', min: 5, max: 2000, default: 60, step: 1 },
    {
      kind: 'select',
      key: 'finish',
      label: 'Finish',
      default: 'matt',
      options: [
        { value: 'matt', label: 'Matt', number: 12 },
        { value: 'gloss', label: 'Gloss', number: 15 },
      ],
    },
    { kind: 'toggle', key: 'ceiling', label: 'Paint the ceiling too', default: false },
  ],
  variables: [{ key: 'surface', formula: 'area * (ceiling ? 1.3 : 1)' }],
  outputs: [
    {
      key: 'total',
      label: 'Estimate',
      formula: 'surface * finish * (1 - lookup(surface, discounts))',
      format: { style: 'currency', decimals: 0 },
      primary: true,
    },
    {
      key: 'days',
      label: 'Working days',
      formula: 'ceil(surface / 40)',
      format: { style: 'number', decimals: 0, unit: 'days' },
      bands: [{ upTo: 1, label: 'One day', tone: 'good' }, { label: 'Several days' }],
    },
  ],
  tables: {
    discounts: [
      [0, 0],
      [100, 0.05],
      [300, 0.1],
    ],
  },
};

/** The definition as the API reference shows it: with this calculator as its example. */
export const DocumentedDefinition = { ...DefinitionSchema, examples: [EXAMPLE_DEFINITION] } as typeof DefinitionSchema;
