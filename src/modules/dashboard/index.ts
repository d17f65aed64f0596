import { Elysia } from 'elysia';
import { answerFile, servedFileOf } from '../../http/encoding.ts';
import { bundleDashboard } from './bundle.macro.ts' with { type: 'macro' };
import { dashboardPage } from './page.ts';

// Inlined at bundle time: every built file with its gzip/brotli copies as literals.
const built = bundleDashboard();

/** Where the hashed files are served: outside /dashboard/, where every path is the app. */
export const ASSET_PREFIX = '/assets/dashboard/';

/**
 * The dashboard's policy: only its own origin, no inline code, no framing. Its files are
 * all same-origin, so 'self' is all any of them needs; `data:` images are uPlot's.
 */
export const DASHBOARD_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const assets = new Map(built.map((asset) => [asset.name, { type: asset.type, file: servedFileOf(asset) }] as const));

/** The files the page links: entry points only (chunks are imported by them when needed). */
const linked = (extension: string) =>
  built.filter((asset) => asset.kind !== 'chunk' && asset.name.endsWith(extension)).map((asset) => asset.name);

/**
 * The calculator builder's chunk (dashboard/src/builder/builder.tsx), loaded only when its
 * page opens: it carries the definition validator and the widget's renderer, and is
 * measured apart from the rest (docs/dashboard.md, "Serving and caching").
 */
export const isBuilderChunk = (name: string): boolean => name.startsWith('builder-') && name.endsWith('.js');

const gzipBytes = (builder: boolean) =>
  [...assets].reduce(
    (sum, [name, { file }]) => (isBuilderChunk(name) === builder ? sum + file.bodies.gzip.byteLength : sum),
    0,
  );

/** Gzip bytes of all the dashboard's JavaScript and CSS but the builder: the size budget is measured on this. */
export const dashboardGzipBytes = gzipBytes(false);

/** Gzip bytes of the builder's chunk. */
export const builderGzipBytes = gzipBytes(true);

const securityHeaders = {
  'content-security-policy': DASHBOARD_CSP,
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

/**
 * Serves the owners' web app: the same HTML for /dashboard and every path below it (so a
 * reloaded deep link works), never cached, so a new release is picked up at once; the
 * files it loads have content hashes in their names and are cached for a year.
 */
export function dashboardModule(deps: { signupEnabled: boolean }) {
  const html = dashboardPage({
    scripts: linked('.js').map((name) => ASSET_PREFIX + name),
    styles: linked('.css').map((name) => ASSET_PREFIX + name),
    signupEnabled: deps.signupEnabled,
  });
  const page = () =>
    new Response(html, {
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-cache, no-store',
        ...securityHeaders,
      },
    });
  return new Elysia({ tags: ['dashboard'] })
    .get('/dashboard', page, { detail: { hide: true } })
    .get('/dashboard/*', page, { detail: { hide: true } })
    .get(
      `${ASSET_PREFIX}:name`,
      ({ params, request, set }) => {
        const asset = assets.get(params.name);
        if (!asset) {
          set.status = 404;
          return { error: { code: 'not_found', message: `No dashboard file ${params.name}.` } };
        }
        // The name changes with the content, so a cached copy is never stale.
        return answerFile(request, asset.file, asset.type, {
          'cache-control': 'public, max-age=31536000, immutable',
          ...securityHeaders,
        });
      },
      { detail: { hide: true } },
    );
}
