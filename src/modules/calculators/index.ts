import { Elysia } from 'elysia';
import { type CatalogueCalculator, catalogueCalculator, type Template, templates } from '../../calculators/index.ts';
import { CalcIdParam, ErrorResponse } from '../../http/model.ts';
import { requireCalculator } from '../../require-calculator.ts';
import { CalculatorEnvelope, CalculatorList } from './model.ts';

// The module's face: what other parts of calc may use (CONTRIBUTING.md, "Modules and their faces").
export type { CalculatorEnvelope, CalculatorList } from './model.ts';

// The catalogue never changes while the server runs: each answer is built once.
const envelopes = new WeakMap<Template, { calculator: CatalogueCalculator }>();
function envelopeOf(template: Template): { calculator: CatalogueCalculator } {
  let envelope = envelopes.get(template);
  if (envelope === undefined) {
    envelope = { calculator: catalogueCalculator(template) };
    envelopes.set(template, envelope);
  }
  return envelope;
}
const catalogue = { calculators: templates.map((template) => envelopeOf(template).calculator) };

/** The public catalogue: which calculators exist, their fields and their definitions. */
export function calculatorsModule() {
  return new Elysia({ tags: ['calculators'] })
    .get('/v1/calculators', () => catalogue, {
      response: { 200: CalculatorList },
      detail: { summary: 'List every calculator with its public definition' },
    })
    .get('/v1/calculators/:calcId', ({ params }) => envelopeOf(requireCalculator(params.calcId)), {
      params: CalcIdParam,
      response: { 200: CalculatorEnvelope, 400: ErrorResponse, 404: ErrorResponse },
      detail: { summary: "One calculator's public definition" },
    });
}
