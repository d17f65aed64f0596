import { Elysia } from 'elysia';
import pkg from '../../package.json' with { type: 'json' };
import { buildOpenApi, type RouteLike } from './openapi.ts';
import { DOCS_HTML, DOCS_JS } from './docs-page.ts';

/**
 * `/openapi.json`, generated from the routes' own TypeBox schemas, and `/docs`, a
 * reader that needs no CDN (VMs often have no outside access).
 */
export function docsModule(routes: () => RouteLike[]) {
  let document: unknown;
  return new Elysia({ tags: ['docs'] })
    .get('/openapi.json', () => (document ??= buildOpenApi(routes(), { title: 'calc API', version: pkg.version })), {
      detail: { hide: true },
    })
    .get(
      '/docs',
      () =>
        new Response(DOCS_HTML, {
          headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "default-src 'self'" },
        }),
      { detail: { hide: true } },
    )
    .get(
      '/docs/reader.js',
      () => new Response(DOCS_JS, { headers: { 'content-type': 'text/javascript; charset=utf-8' } }),
      { detail: { hide: true } },
    );
}
