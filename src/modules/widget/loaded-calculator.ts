import { catalogueCalculator, type CatalogueCalculator, type Template } from '../../calculators/index.ts';
import type { Definition, Text } from '../../definition/types.ts';

/** An owner's calculator as a load answer shows it: what the widget renders, nothing of the owner's account. */
export interface OwnLoadedCalculator {
  id: string;
  title: Text;
  definition: Definition;
}

/**
 * The `calculator` of a load (and preview) answer (docs/calculators.md, "Loading your
 * calculators"): a template in the catalogue's public shape with its definition, as
 * `GET /v1/calculators/:calcId` shows it; an owner's calculator as its id, title and the
 * definition served (the published one, or the draft in a draft preview).
 */
export function loadedCalculator(
  definition: Definition,
  template?: Template,
): CatalogueCalculator | OwnLoadedCalculator {
  return template ? catalogueCalculator(template) : { id: definition.id, title: definition.title, definition };
}
