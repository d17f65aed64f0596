import { t } from 'elysia';
import { catalogueCalculator } from '../../calculators/index.ts';
import { bmi } from '../../calculators/templates/bmi.ts';

// The shape has its home in src/calculators/templates/public.ts (the public fields, as the
// catalogue has always served them) and src/definition/ (the definition, for copying).
const Calculator = t.Record(t.String(), t.Unknown(), {
  description:
    'id, title, unit systems, fields (key, label, unit, min, max, default), results, and the `definition` in the formula language (docs/calculators.md), which an owner can copy',
  examples: [catalogueCalculator(bmi)],
});

export const CalculatorList = t.Object({ calculators: t.Array(Calculator) });

export const CalculatorEnvelope = t.Object({ calculator: Calculator });
