import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

/**
 * Runs at bundle time (imported `with { type: 'macro' }`): reads Redoc's standalone
 * build from node_modules and inlines it with a gzip copy, so /docs works offline from
 * the executable alone (no CDN, no files beside it).
 */
export function readRedoc(): { js: string; gzip: string } {
  const js = readFileSync(Bun.resolveSync('redoc/bundles/redoc.standalone.js', import.meta.dir), 'utf8');
  return { js, gzip: gzipSync(js, { level: 9 }).toString('base64') };
}
