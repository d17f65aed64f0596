/**
 * The catalogue's templates are not in the script: each is a static file of the script's
 * origin under a content-hashed name (`/widget/calculators/bmi.<hash>.json`, the
 * definition the load answer also carries), which the build writes into the script. A
 * catalogue widget fetches its file beside the load request and renders from whichever
 * arrives first (docs/decisions.md, "Templates as files").
 */

import { builtNames } from './static-file.ts';

// Set at bundle time to { bmi: "bmi.<hash>.json", … }.
declare const CALC_TEMPLATES: Record<string, string> | undefined;
const TEMPLATE_FILES = builtNames(() => CALC_TEMPLATES);

/** Where a catalogue calculator's template is; undefined for any other id (an owner's, or none). */
export function templateUrl(apiOrigin: string, calcId: string): string | undefined {
  return Object.hasOwn(TEMPLATE_FILES, calcId)
    ? `${apiOrigin}/widget/calculators/${TEMPLATE_FILES[calcId]}`
    : undefined;
}
