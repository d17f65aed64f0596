/**
 * GET /widget/calculators/:file without a browser: each catalogue template is served
 * under a name that holds the hash of its content, which the script knows, with the
 * definition the load answer carries, cached for a year, compressed when accepted, with
 * an ETag; any other name is a 404.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { calculatorIds } from '../../src/calculators/index.ts';
import { languagePackSizes, templateFileSizes } from '../../src/modules/widget-script/index.ts';
import { testApp } from '../helpers/test-app.ts';

const ORIGIN = 'https://shop.example';
const app = testApp();
afterAll(() => app[Symbol.dispose]());

/** handle() keeps the raw bytes: fetch() would decode them for us. */
async function get(path: string, headers: Record<string, string> = {}) {
  const response = await app.handle(new Request(`http://calc.test${path}`, { headers }));
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

const fileOf = (id: string): string => {
  const found = templateFileSizes.find((file) => file.file.startsWith(`${id}.`));
  if (!found) throw new Error(`no template file for ${id}`);
  return found.file;
};

describe('GET /widget/calculators/:file', () => {
  test('one file per catalogue calculator, named by its id and the hash of its content, named in the script', async () => {
    expect(templateFileSizes.map(({ file }) => file.split('.')[0]).sort()).toEqual([...calculatorIds].sort());
    const script = new TextDecoder().decode((await get('/widget.js')).bytes);
    expect(script).toContain('/widget/calculators/');
    for (const { file } of templateFileSizes) {
      expect(file).toMatch(/^[a-z0-9-]+\.[0-9a-f]{12}\.json$/);
      const { response, bytes } = await get(`/widget/calculators/${file}`);
      expect(response.status).toBe(200);
      // A changed template is a new name: the name's hash is the content's.
      expect(file.split('.')[1]).toBe(createHash('sha256').update(bytes).digest('hex').slice(0, 12));
      expect(script).toContain(file);
    }
  });

  test('the file is the definition the load answer carries', async () => {
    const owner = await app.signup();
    expect((await app.request('POST', '/v1/domains', { token: owner.token, body: { domain: ORIGIN } })).status).toBe(
      201,
    );
    for (const calcId of calculatorIds) {
      const load = await app.request('POST', '/v1/widget/load', {
        body: { apiKey: owner.apiKey, domain: ORIGIN, calcId },
      });
      expect(load.status).toBe(200);
      const { bytes } = await get(`/widget/calculators/${fileOf(calcId)}`);
      expect(JSON.parse(new TextDecoder().decode(bytes))).toEqual(load.json.calculator.definition);
    }
  });

  test('immutable for a year, to any origin, with an ETag; 304 when it matches', async () => {
    const path = `/widget/calculators/${fileOf('bmi')}`;
    const { response } = await get(path);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('vary')).toBe('Accept-Encoding');
    const etag = response.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{16,}"$/);
    const again = await get(path, { 'if-none-match': etag, 'accept-encoding': 'br' });
    expect(again.response.status).toBe(304);
    expect(again.bytes.byteLength).toBe(0);
    expect(again.response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  test('brotli or gzip when accepted, decoding to the same JSON; identity otherwise', async () => {
    for (const { file, raw, gzip, br } of templateFileSizes) {
      const path = `/widget/calculators/${file}`;
      const identity = await get(path, { 'accept-encoding': 'identity' });
      expect(identity.response.headers.get('content-encoding')).toBeNull();
      expect(identity.bytes.byteLength).toBe(raw);
      const json = new TextDecoder().decode(identity.bytes);

      const brotli = await get(path, { 'accept-encoding': 'gzip, deflate, br, zstd' });
      expect(brotli.response.headers.get('content-encoding')).toBe('br');
      expect(brotli.bytes.byteLength).toBe(br);
      expect(brotliDecompressSync(brotli.bytes).toString()).toBe(json);

      const gzipped = await get(path, { 'accept-encoding': 'gzip' });
      expect(gzipped.response.headers.get('content-encoding')).toBe('gzip');
      expect(gzipped.bytes.byteLength).toBe(gzip);
      expect(gunzipSync(gzipped.bytes).toString()).toBe(json);
      // Small: one packet on the wire.
      expect(gzip).toBeLessThan(1400);
    }
  });

  test('an unknown, stale or foreign name is a 404 in the error shape', async () => {
    for (const name of [
      'bmi.000000000000.json',
      'bmi.json',
      'no-such-calculator.000000000000.json',
      '__proto__',
      'constructor',
      // A language pack is not a calculator.
      languagePackSizes[0]?.file ?? 'de.json',
    ]) {
      const { response, bytes } = await get(`/widget/calculators/${name}`);
      expect(response.status).toBe(404);
      const body = JSON.parse(new TextDecoder().decode(bytes)) as { error: { code: string } };
      expect(body.error.code).toBe('not_found');
    }
  });
});
