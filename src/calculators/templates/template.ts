import type { Definition } from '../../definition/types.ts';

/**
 * A catalogue calculator: a definition in the formula language, which an owner can copy
 * into a draft, plus what only the catalogue shows (its category and notes).
 */
export interface Template {
  category: string;
  notes?: string;
  definition: Definition;
}
