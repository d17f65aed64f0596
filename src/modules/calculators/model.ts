import { t } from 'elysia';
import { bmi } from '../../calculators/bmi.ts';
import { toPublic } from '../../calculators/definition.ts';

// The definition's shape has its home in src/calculators/definition.ts (browser-safe, shared
// with the widget); the schema only says that it is an object. Its example is the real one.
const Definition = t.Record(t.String(), t.Unknown(), {
  description: 'id, title, unit systems, fields (key, label, unit, min, max, default), results',
  examples: [toPublic(bmi)],
});

export const CalculatorList = t.Object({ calculators: t.Array(Definition) });

export const CalculatorEnvelope = t.Object({ calculator: Definition });
