/**
 * The TypeScript types of a definition, taken from its schema (schema.ts) so the shape is
 * written once. Type-only: importing this module loads no TypeBox at run time.
 */
import type { Static } from '@sinclair/typebox';
import type * as Schema from './schema.ts';

export type Definition = Static<typeof Schema.Definition>;
export type Input = Static<typeof Schema.Input>;
export type Output = Static<typeof Schema.Output>;
export type Text = Static<typeof Schema.Text>;
export type UnitSystem = Static<typeof Schema.UnitSystem>;
export type NumberInput = Extract<Input, { kind: 'number' }>;
export type SelectInput = Extract<Input, { kind: 'select' }>;
export type Band = NonNullable<Output['bands']>[number];

export type Problem = Static<typeof Schema.Problem>;

/** Values by input key, as pre-fill and the widget hold them: numbers, option values, toggles' booleans. */
export type InputValues = Record<string, number | string | boolean>;
