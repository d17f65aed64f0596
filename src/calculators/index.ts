/**
 * The calculator catalogue: the twelve templates (./templates/), in display order. Shared
 * by the server (catalogue routes, widget loads, webhook merge), the CLI and the widget's
 * build (a static file per template, which the widget renders); it imports nothing but
 * browser-safe code, so any browser bundle may take it.
 */
import { templates } from './templates/index.ts';
import type { Template } from './templates/template.ts';

export { templates } from './templates/index.ts';
export { type CatalogueCalculator, catalogueCalculator } from './templates/public.ts';
export type { Template } from './templates/template.ts';

// A Map, not an object: ids like "__proto__" or "toString" must not find anything.
const byId: ReadonlyMap<string, Template> = new Map(templates.map((template) => [template.definition.id, template]));

const frozenIds = () => Object.freeze(templates.map((template) => template.definition.id));
// Pure: a bundle that never reads the ids (the widget's) drops them.
export const calculatorIds: readonly string[] = /* @__PURE__ */ frozenIds();

/** The catalogue template with this id, or undefined for any other string. */
export function getTemplate(id: string): Template | undefined {
  return byId.get(id);
}
