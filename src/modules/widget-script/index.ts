import { Elysia } from 'elysia';
import { bundleWidgetScript } from './bundle.macro.ts' with { type: 'macro' };
import { chooseEncoding, matchesEtag, type ScriptEncoding } from './encoding.ts';

// Inlined at bundle time: the script text and its gzip/brotli copies as literals.
const bundle = bundleWidgetScript();

const fromBase64 = (text: string): Uint8Array<ArrayBuffer> => new Uint8Array(Buffer.from(text, 'base64'));

const bodies: Record<ScriptEncoding, Uint8Array<ArrayBuffer>> = {
  identity: new TextEncoder().encode(bundle.js),
  gzip: fromBase64(bundle.gzip),
  br: fromBase64(bundle.br),
};

/**
 * Caching: customers embed the unversioned URL `/widget.js` forever, so it cannot be
 * `immutable`. Five minutes of freshness means a fix reaches every page within minutes;
 * `stale-while-revalidate` lets browsers start the cached copy at once while they
 * revalidate with the ETag in the background (a 304 of a few hundred bytes).
 */
const CACHE_CONTROL = 'public, max-age=300, stale-while-revalidate=86400';

function scriptHeaders(): Record<string, string> {
  return {
    etag: bundle.etag,
    'cache-control': CACHE_CONTROL,
    vary: 'Accept-Encoding',
    // Any page may load the script (the domain check guards the API, not the script).
    'cross-origin-resource-policy': 'cross-origin',
    'access-control-allow-origin': '*',
    'x-content-type-options': 'nosniff',
  };
}

/** Sizes of the served script, for the size checks and the benchmark. */
export const widgetScriptSizes = {
  raw: bodies.identity.byteLength,
  gzip: bodies.gzip.byteLength,
  br: bodies.br.byteLength,
} as const;

/** Serves the embed script, precompressed, with an ETag for cheap revalidation. */
export function widgetScriptModule() {
  return new Elysia({ tags: ['widget'] }).get(
    '/widget.js',
    ({ request }) => {
      const headers = scriptHeaders();
      if (matchesEtag(request.headers.get('if-none-match'), bundle.etag))
        return new Response(null, { status: 304, headers });
      const encoding = chooseEncoding(request.headers.get('accept-encoding'));
      if (encoding !== 'identity') headers['content-encoding'] = encoding;
      headers['content-type'] = 'text/javascript; charset=utf-8';
      return new Response(bodies[encoding], { headers });
    },
    { detail: { summary: 'The embed script (minified, precompressed)' } },
  );
}
