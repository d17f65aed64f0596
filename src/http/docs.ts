import { Elysia } from 'elysia';
import pkg from '../../package.json' with { type: 'json' };
import { DOCS_CSP, DOCS_HTML } from './docs-page.ts';
import { buildOpenApi, type RouteLike } from './openapi.ts';
// Embedded in the executable as a file, read when asked for: a megabyte of script held as
// a string from start would sit in every server's memory, though most never serve /docs.
import redocPath from 'redoc/bundles/redoc.standalone.js' with { type: 'file' };

// Compressed on the first request that accepts gzip (once): most servers never serve /docs.
let redocGzip: Uint8Array<ArrayBuffer> | undefined;

/**
 * `/openapi.json`, generated from the routes' own TypeBox schemas, and `/docs`, the
 * reference rendered by Redoc from the executable itself (VMs often have no outside
 * access).
 */
export function docsModule(routes: () => RouteLike[], publicUrl: () => string) {
  let document: unknown;
  return new Elysia({ tags: ['docs'] })
    .get(
      '/openapi.json',
      () => (document ??= buildOpenApi(routes(), { title: 'calc API', version: pkg.version, publicUrl: publicUrl() })),
      { detail: { hide: true } },
    )
    .get(
      '/docs',
      () =>
        new Response(DOCS_HTML, {
          headers: {
            'content-type': 'text/html; charset=utf-8',
            'content-security-policy': DOCS_CSP,
            'x-content-type-options': 'nosniff',
          },
        }),
      { detail: { hide: true } },
    )
    .get(
      '/docs/redoc.standalone.js',
      async ({ request }) => {
        const gzip = /\bgzip\b/.test(request.headers.get('accept-encoding') ?? '');
        const headers: Record<string, string> = {
          'content-type': 'text/javascript; charset=utf-8',
          // Changes only with calc's version, which changes the executable.
          'cache-control': 'public, max-age=3600',
          vary: 'Accept-Encoding',
          'x-content-type-options': 'nosniff',
        };
        if (gzip) headers['content-encoding'] = 'gzip';
        if (!gzip) return new Response(Bun.file(redocPath), { headers });
        redocGzip ??= new Uint8Array(Bun.gzipSync(await Bun.file(redocPath).bytes(), { level: 9 }));
        return new Response(redocGzip, { headers });
      },
      { detail: { hide: true } },
    );
}
