/**
 * GET /widget/chunks/:file without a browser: the parts of the script only some widgets
 * load (the results form) are ES modules under names that hold the hash of their content,
 * which the script knows, cached for a year, to any origin, compressed when accepted; any
 * other name is a 404.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { chunkSizes, templateFileSizes } from '../../src/modules/widget-script/index.ts';
import { testApp } from '../helpers/test-app.ts';

const app = testApp();
afterAll(() => app[Symbol.dispose]());

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await app.handle(new Request(`http://calc.test${path}`, { headers }));
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

describe('GET /widget/chunks/:file', () => {
  test('the results chunk: named by the hash of its content, named in the script, an ES module of the form', async () => {
    expect(chunkSizes.map(({ file }) => file.split('.')[0])).toEqual(['results']);
    const [{ file, raw, gzip, br }] = chunkSizes as [(typeof chunkSizes)[number]];
    expect(file).toMatch(/^results\.[0-9a-f]{12}\.js$/);
    const script = new TextDecoder().decode((await get('/widget.js')).bytes);
    expect(script).toContain(file);

    const identity = await get(`/widget/chunks/${file}`, { 'accept-encoding': 'identity' });
    expect(identity.response.status).toBe(200);
    expect(file.split('.')[1]).toBe(createHash('sha256').update(identity.bytes).digest('hex').slice(0, 12));
    expect(identity.bytes.byteLength).toBe(raw);
    const text = new TextDecoder().decode(identity.bytes);
    // What the script uses of it, under these names.
    expect(text).toMatch(/export\s*\{[^}]*\bresultsForm\b/);
    expect(text).toMatch(/export\s*\{[^}]*\bcss\b/);

    const brotli = await get(`/widget/chunks/${file}`, { 'accept-encoding': 'gzip, br' });
    expect(brotli.response.headers.get('content-encoding')).toBe('br');
    expect(brotliDecompressSync(brotli.bytes).toString()).toBe(text);
    const gzipped = await get(`/widget/chunks/${file}`, { 'accept-encoding': 'gzip' });
    expect(gunzipSync(gzipped.bytes).toString()).toBe(text);
    expect([gzipped.bytes.byteLength, brotli.bytes.byteLength]).toEqual([gzip, br]);
    // Small: the results form costs a page that offers it about one packet.
    expect(gzip).toBeLessThan(2048);
  });

  test('a script for any origin, immutable for a year, with an ETag; 304 when it matches', async () => {
    const path = `/widget/chunks/${chunkSizes[0]?.file}`;
    const { response } = await get(path);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // A module imported from another origin is fetched with CORS.
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const etag = response.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{16,}"$/);
    expect((await get(path, { 'if-none-match': etag })).response.status).toBe(304);
  });

  test('an unknown, stale or foreign name is a 404 in the error shape', async () => {
    for (const name of ['results.000000000000.js', 'results.js', '__proto__', templateFileSizes[0]?.file ?? 'x']) {
      const { response, bytes } = await get(`/widget/chunks/${name}`);
      expect(response.status).toBe(404);
      expect((JSON.parse(new TextDecoder().decode(bytes)) as { error: { code: string } }).error.code).toBe('not_found');
    }
  });
});
