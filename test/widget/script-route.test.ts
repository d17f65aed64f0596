/** GET /widget.js: encodings, ETag and 304, headers and size, without a browser. */
import { afterAll, describe, expect, test } from 'bun:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { calculatorIds } from '../../src/calculators/index.ts';
import { FUNCTIONS } from '../../src/formula/functions.ts';
import { templateFileSizes, widgetScriptSizes } from '../../src/modules/widget-script/index.ts';
import { SOURCE_CLI, startServe } from '../helpers/process.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { testApp } from '../helpers/test-app.ts';

const app = testApp();
afterAll(() => app[Symbol.dispose]());

/** handle() keeps the raw bytes: fetch() would decode them for us. */
async function getScript(headers: Record<string, string> = {}) {
  const response = await app.handle(new Request('http://calc.test/widget.js', { headers }));
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

const FUNCTION_NAMES = [...FUNCTIONS.keys()];
const identity = await getScript();
const js = new TextDecoder().decode(identity.bytes);

describe('GET /widget.js', () => {
  test('identity: JavaScript with the documented caching and cross-origin headers', () => {
    const { response } = identity;
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(response.headers.get('vary')).toBe('Accept-Encoding');
    expect(response.headers.get('cache-control')).toBe('public, max-age=300, stale-while-revalidate=86400');
    expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{16,}"$/);
    expect(js.startsWith('(()=>{')).toBe(true);
    expect(js).toContain('CalcWidget');
  });

  test('brotli when accepted, and it decodes to the same script', async () => {
    const { response, bytes } = await getScript({ 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(response.headers.get('vary')).toBe('Accept-Encoding');
    expect(response.headers.get('etag')).toBe(identity.response.headers.get('etag'));
    expect(new TextDecoder().decode(brotliDecompressSync(bytes))).toBe(js);
  });

  test('gzip when brotli is not accepted, and it decodes to the same script', async () => {
    const { response, bytes } = await getScript({ 'accept-encoding': 'gzip, deflate' });
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(new TextDecoder().decode(gunzipSync(bytes))).toBe(js);
  });

  test('identity when only identity is accepted', async () => {
    const { response, bytes } = await getScript({ 'accept-encoding': 'identity' });
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(bytes.byteLength).toBe(identity.bytes.byteLength);
  });

  test('304 without a body on a matching If-None-Match (plain, weak or in a list)', async () => {
    const etag = identity.response.headers.get('etag') ?? '';
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`]) {
      const { response, bytes } = await getScript({ 'if-none-match': ifNoneMatch, 'accept-encoding': 'br' });
      expect(response.status).toBe(304);
      expect(bytes.byteLength).toBe(0);
      expect(response.headers.get('etag')).toBe(etag);
      expect(response.headers.get('cache-control')).toBe('public, max-age=300, stale-while-revalidate=86400');
    }
    const { response } = await getScript({ 'if-none-match': '"stale"' });
    expect(response.status).toBe(200);
  });

  test('small: at most 14 KB gzip with the formula evaluator and the names of all 12 calculators', () => {
    expect(widgetScriptSizes.raw).toBe(identity.bytes.byteLength);
    expect(widgetScriptSizes.gzip).toBeLessThanOrEqual(14 * 1024);
    expect(widgetScriptSizes.br).toBeLessThan(widgetScriptSizes.gzip);
    // The evaluator is inside: every function of the formula language is in its table.
    for (const name of FUNCTION_NAMES) expect(js).toContain(`"${name}"`);
    // Every catalogue calculator is reachable: the script names its template file, served beside it.
    expect(calculatorIds).toHaveLength(12);
    expect(templateFileSizes.map(({ file }) => file.split('.')[0]).sort()).toEqual([...calculatorIds].sort());
    for (const { file } of templateFileSizes) expect(js).toContain(`"${file}"`);
  });

  test('CSP-clean source: no eval, no Function constructor, no innerHTML, no style attributes', () => {
    expect(js).not.toMatch(
      /\beval\s*\(|new\s+Function\b|\bFunction\s*\(|innerHTML|outerHTML|insertAdjacentHTML|document\.write|setAttribute\(\s*["']style/,
    );
    expect(js).not.toMatch(/\.style\s*=|\.style\.|cssText/);
  });

  test('`calc serve` from the sources serves the same script (the macro under bun run)', async () => {
    using dir = tempDir();
    await using server = await startServe(SOURCE_CLI, ['--data', dir.path]);
    const response = await fetch(`${server.url}/widget.js`, { headers: { 'accept-encoding': 'identity' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBe(identity.response.headers.get('etag'));
    expect(await response.text()).toBe(js);
  });
});
