import { t } from 'elysia';
import { catalogueCalculator } from '../../calculators/index.ts';
import { CatalogueCalculator } from '../../calculators/schema.ts';
import { bmi } from '../../calculators/templates/bmi.ts';

// The shape has its home in src/calculators/schema.ts (the public fields, as the catalogue
// has always served them, and the definition, for copying).
const Calculator = t.Composite([CatalogueCalculator], {
  description:
    'id, title, unit systems, fields (key, label, unit, min, max, default), results, and the `definition` in the formula language (docs/calculators.md), which an owner can copy',
  examples: [catalogueCalculator(bmi)],
});

export const CalculatorList = t.Object({ calculators: t.Array(Calculator) });

export const CalculatorEnvelope = t.Object({ calculator: Calculator });
