import { Elysia } from 'elysia';
import { catalogueCalculator, templates } from '../../calculators/index.ts';
import { CalcIdParam, ErrorResponse } from '../../http/model.ts';
import { requireCalculator } from '../../require-calculator.ts';
import { CalculatorEnvelope, CalculatorList } from './model.ts';

// The module's face: what other parts of calc may use (CONTRIBUTING.md, "Modules and their faces").
export type { CalculatorEnvelope, CalculatorList } from './model.ts';

// The catalogue never changes while the server runs: each answer is built once.
const catalogue = { calculators: templates.map(catalogueCalculator) };
const envelopes = new Map(catalogue.calculators.map((calculator) => [calculator.id, { calculator }]));

/** The public catalogue: which calculators exist, their fields and their definitions. */
export function calculatorsModule() {
  return new Elysia({ tags: ['calculators'] })
    .get('/v1/calculators', () => catalogue, {
      response: { 200: CalculatorList },
      detail: { summary: 'List every calculator with its public definition' },
    })
    .get(
      '/v1/calculators/:calcId',
      ({ params }) => {
        const calculator = requireCalculator(params.calcId);
        return envelopes.get(calculator.definition.id) ?? { calculator: catalogueCalculator(calculator) };
      },
      {
        params: CalcIdParam,
        response: { 200: CalculatorEnvelope, 400: ErrorResponse, 404: ErrorResponse },
        detail: { summary: "One calculator's public definition" },
      },
    );
}
