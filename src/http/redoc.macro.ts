import { readFileSync } from 'node:fs';

/**
 * Runs at bundle time (imported `with { type: 'macro' }`): reads Redoc's standalone
 * build from node_modules and inlines it, so /docs works offline from the executable
 * alone (no CDN, no files beside it). Compressed on first use, not here: every start
 * from the sources runs this.
 */
export function readRedoc(): string {
  return readFileSync(Bun.resolveSync('redoc/bundles/redoc.standalone.js', import.meta.dir), 'utf8');
}
