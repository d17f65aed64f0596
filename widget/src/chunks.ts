/**
 * Parts of the script that only some widgets need, as ES modules under content-hashed names
 * at `/widget/chunks/` (cached for a year, like the packs): imported from the script's own
 * origin, which a page's `script-src` already allows for the script itself.
 */
import type * as ResultsChunk from './results.ts';
import { builtNames } from './static-file.ts';

// Set at bundle time to { results: "results.<hash>.js" }.
declare const CALC_CHUNKS: Record<string, string> | undefined;
const CHUNK_FILES = builtNames(() => CALC_CHUNKS);

let results: Promise<typeof ResultsChunk | undefined> | undefined;

/** The results form's module, imported once per page; undefined when it fails (the next widget tries again). */
export function loadResultsChunk(apiOrigin: string): Promise<typeof ResultsChunk | undefined> {
  const file = CHUNK_FILES.results;
  if (!file) return Promise.resolve(undefined);
  results ??= (import(`${apiOrigin}/widget/chunks/${file}`) as Promise<typeof ResultsChunk>).catch(() => {
    results = undefined;
    return undefined;
  });
  return results;
}
