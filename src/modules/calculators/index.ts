import { Elysia } from 'elysia';
import { calculators } from '../../calculators/index.ts';
import { toPublic } from '../../calculators/definition.ts';
import { CalcIdParam, ErrorResponse } from '../../http/model.ts';
import { CalculatorEnvelope, CalculatorList } from './model.ts';
import { requireCalculator } from '../../require-calculator.ts';

// The module's face: what other parts of calc may use (CONTRIBUTING.md, "Modules and their faces").
export type { CalculatorEnvelope, CalculatorList } from './model.ts';

// The catalogue never changes while the server runs: serialise it once.
const catalogue = { calculators: calculators.map(toPublic) as unknown as Record<string, unknown>[] };

/** The public catalogue: which calculators exist and their fields. */
export function calculatorsModule() {
  return new Elysia({ tags: ['calculators'] })
    .get('/v1/calculators', () => catalogue, {
      response: { 200: CalculatorList },
      detail: { summary: 'List every calculator with its public definition' },
    })
    .get(
      '/v1/calculators/:calcId',
      ({ params }) => {
        return { calculator: toPublic(requireCalculator(params.calcId)) as unknown as Record<string, unknown> };
      },
      {
        params: CalcIdParam,
        response: { 200: CalculatorEnvelope, 400: ErrorResponse, 404: ErrorResponse },
        detail: { summary: "One calculator's public definition" },
      },
    );
}
