/** How the dashboard is served: one app for every path, its policy, caching and size budget. */
import { afterAll, expect, test } from 'bun:test';
import {
  ASSET_PREFIX,
  builderGzipBytes,
  DASHBOARD_CSP,
  dashboardGzipBytes,
  isBuilderChunk,
} from '../../src/modules/dashboard/index.ts';
import { testApp } from '../helpers/test-app.ts';

const app = testApp();
afterAll(() => app[Symbol.dispose]());

const PATHS = [
  '/dashboard',
  '/dashboard/',
  '/dashboard/domains',
  '/dashboard/calculators',
  '/dashboard/calculators/bmi',
  '/dashboard/usage',
  '/dashboard/account',
  '/dashboard/no/such/page',
];

/** The hashed files the page loads, from its HTML. */
function assetPaths(html: string): string[] {
  return [...html.matchAll(/(?:src|href)="(\/assets\/dashboard\/[^"]+)"/g)].map((match) => match[1] as string);
}

test('every path under /dashboard serves the same uncached app with the strict policy', async () => {
  const first = await app.request('GET', '/dashboard');
  for (const path of PATHS) {
    const res = await app.request('GET', path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('cache-control')).toContain('no-store');
    expect(res.text).toBe(first.text);
  }
  expect(DASHBOARD_CSP).toBe(
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  );
  // No inline script or style: the policy would block them.
  expect(first.text).not.toMatch(/<script>|<style|style="/);
  expect(assetPaths(first.text).length).toBeGreaterThanOrEqual(2);
});

test('the files have content-hashed names, long-lived caching, compression and revalidation', async () => {
  const html = (await app.request('GET', '/dashboard')).text;
  for (const path of assetPaths(html)) {
    expect(path).toMatch(/-[a-z0-9]{6,}\.(js|css)$/);
    const plain = await app.request('GET', path);
    expect(plain.status).toBe(200);
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(plain.headers.get('content-type')).toStartWith(path.endsWith('.js') ? 'text/javascript' : 'text/css');
    expect(plain.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
    const gzip = await app.handle(new Request(`http://calc.test${path}`, { headers: { 'accept-encoding': 'gzip' } }));
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await gzip.arrayBuffer())))).toBe(plain.text);
    const again = await app.request('GET', path, { headers: { 'if-none-match': plain.headers.get('etag') ?? '' } });
    expect(again.status).toBe(304);
  }
  const missing = await app.request('GET', `${ASSET_PREFIX}main-nothere.js`);
  expect(missing.status).toBe(404);
  expect(missing.json.error.code).toBe('not_found');
});

test('all JavaScript and CSS together, chunks loaded on demand included, stay within 60 KB gzip; the builder apart', async () => {
  const html = (await app.request('GET', '/dashboard')).text;
  const paths = assetPaths(html);
  // Chunks the entry imports on demand (the chart library), by their relative names.
  for (const path of paths.filter((p) => p.endsWith('.js'))) {
    const entry = (await app.request('GET', path)).text;
    for (const match of entry.matchAll(/"\.\/([\w.-]+\.js)"/g)) paths.push(`${ASSET_PREFIX}${match[1]}`);
  }
  expect(paths.some((path) => path.includes('uPlot'))).toBe(true);
  let total = 0;
  let builder = 0;
  for (const path of new Set(paths)) {
    const res = await app.handle(new Request(`http://calc.test${path}`, { headers: { 'accept-encoding': 'gzip' } }));
    expect(res.status).toBe(200);
    const bytes = (await res.arrayBuffer()).byteLength;
    if (isBuilderChunk(path.slice(ASSET_PREFIX.length))) builder += bytes;
    else total += bytes;
  }
  expect(total).toBe(dashboardGzipBytes);
  expect(total).toBeLessThanOrEqual(60 * 1024);
  // The builder is a chunk of its own, loaded when its page opens.
  expect(builder).toBe(builderGzipBytes);
  expect(builder).toBeGreaterThan(0);
});

test('the validator and the widget renderer load with the builder only', async () => {
  const html = (await app.request('GET', '/dashboard')).text;
  const names = new Set<string>();
  for (const path of assetPaths(html).filter((p) => p.endsWith('.js'))) {
    names.add(path.slice(ASSET_PREFIX.length));
    const entry = (await app.request('GET', path)).text;
    for (const match of entry.matchAll(/"\.\/([\w.-]+\.js)"/g)) names.add(match[1] ?? '');
  }
  const builder = [...names].filter(isBuilderChunk);
  expect(builder).toHaveLength(1);
  for (const name of names) {
    const text = (await app.request('GET', `${ASSET_PREFIX}${name}`)).text;
    // A validator message, and the widget's stylesheet.
    expect({ name, validator: text.includes('is already the key of'), widget: text.includes('all:initial') }).toEqual({
      name,
      validator: isBuilderChunk(name),
      widget: isBuilderChunk(name),
    });
  }
});

test('the page tells the app whether sign-up is open', async () => {
  expect((await app.request('GET', '/dashboard')).text).toContain('data-signup="on"');
  using closed = testApp({ flags: { 'disable-signup': true } });
  expect((await closed.request('GET', '/dashboard/domains')).text).toContain('data-signup="off"');
});

test('the demo page links to the dashboard', async () => {
  expect((await app.request('GET', '/')).text).toContain('<a href="/dashboard">');
});
