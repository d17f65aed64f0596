import { t } from 'elysia';

// The definition's shape has its home in src/calculators/definition.ts (browser-safe, shared
// with the widget); the schema only says that it is an object.
const Definition = t.Record(t.String(), t.Unknown(), {
  description: 'id, title, unit systems, fields (key, label, unit, min, max, default), results',
});

export const CalculatorList = t.Object({ calculators: t.Array(Definition) });

export const CalculatorEnvelope = t.Object({ calculator: Definition });
