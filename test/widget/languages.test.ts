/**
 * Language packs without a browser: every text a visitor can see is translated in every
 * language (no key missing, none stale, slots kept), English fills gaps, and the server
 * serves each pack under its hashed name, cached for good, that the script knows.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { languagePackSizes } from '../../src/modules/widget-script/index.ts';
import { PACKS_DIR } from '../../widget/build/packs.ts';
import { translatableTexts } from '../../widget/build/texts.ts';
import { translator } from '../../widget/src/i18n.ts';
import { TEXTS as RESULTS_TEXTS } from '../../widget/src/results.ts';
import { TEXTS } from '../../widget/src/texts.ts';
import { testApp } from '../helpers/test-app.ts';

const LANGUAGES = ['de', 'es', 'fr', 'it', 'nl', 'pl', 'pt'];
const keys = translatableTexts();
const packs = new Map(
  readdirSync(PACKS_DIR).map((name) => [
    name.replace(/\.json$/, ''),
    JSON.parse(readFileSync(join(PACKS_DIR, name), 'utf8')) as Record<string, string>,
  ]),
);
const slots = (text: string) => [...text.matchAll(/\{\w+\}/g)].map((match) => match[0]).sort();

describe('language packs', () => {
  test('German, Spanish, French, Italian, Dutch, Polish and Portuguese are there (English is built in)', () => {
    expect([...packs.keys()].sort()).toEqual(LANGUAGES);
  });

  test("the texts to translate include every widget text (the results form's too) and each calculator title, label, unit and band", () => {
    for (const text of [
      ...Object.values(TEXTS),
      // The results form's, loaded as a chunk of its own.
      ...Object.values(RESULTS_TEXTS),
      'Body Mass Index (BMI)',
      'Normal weight',
      'Obesity class III',
      'kcal/day',
      'Sedentary (little or no exercise)',
      'Loan-to-value',
      'L/100 km',
      'Paid at the end of each month.',
    ])
      expect(keys).toContain(text);
    // Help that names API keys is never shown, so it is not translated either.
    expect(keys.some((text) => text.includes('`'))).toBe(false);
  });

  test.each(LANGUAGES)('%s translates every key, no stale key, every value non-empty with its slots', (language) => {
    const pack = packs.get(language) ?? {};
    expect(keys.filter((key) => !Object.hasOwn(pack, key))).toEqual([]);
    expect(Object.keys(pack).filter((key) => !keys.includes(key))).toEqual([]);
    for (const key of keys) {
      const text = pack[key] ?? '';
      expect(text.trim()).not.toBe('');
      expect(slots(text)).toEqual(slots(key));
    }
  });

  test('the words visitors read most are really translated', () => {
    const title = (language: string) => packs.get(language)?.['Body Mass Index (BMI)'];
    expect(packs.get('de')?.Weight).toBe('Gewicht');
    expect(packs.get('fr')?.['Normal weight']).toBe('Poids normal');
    expect(title('es')).toBe('Índice de masa corporal (IMC)');
    expect(packs.get('pl')?.['Calculator unavailable']).toBe('Kalkulator niedostępny');
    // Titles differ from English in every language that has its own name for BMI.
    for (const language of ['de', 'fr', 'es', 'it', 'pt', 'pl'])
      expect(title(language)).not.toBe('Body Mass Index (BMI)');
  });

  test('a text missing from a pack shows in English, never as a key; slots are filled', () => {
    const t = translator(new Map([['Weight', 'Gewicht']]));
    expect(t('Weight')).toBe('Gewicht');
    expect(t('Height')).toBe('Height');
    expect(translator(undefined)(TEXTS.range, { min: '2', max: '650 kg' })).toBe('Enter a number from 2 to 650 kg.');
  });
});

describe('GET /widget/i18n/:file', () => {
  const app = testApp();
  afterAll(() => app[Symbol.dispose]());
  const get = (path: string, headers: Record<string, string> = {}) =>
    app.handle(new Request(`http://calc.test${path}`, { headers }));

  test('each pack is served under its hashed name, immutable, to any origin, with brotli', async () => {
    expect(languagePackSizes.map((pack) => pack.file.split('.')[0]).sort()).toEqual(LANGUAGES);
    const script = await (await get('/widget.js')).text();
    for (const { file } of languagePackSizes) {
      expect(file).toMatch(/^[a-z]{2}\.[0-9a-f]{12}\.json$/);
      // The script names every pack, so it can fetch what a locale needs.
      expect(script).toContain(file);
      const response = await get(`/widget/i18n/${file}`, { 'accept-encoding': 'br' });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('content-encoding')).toBe('br');
      const pack = JSON.parse(brotliDecompressSync(new Uint8Array(await response.arrayBuffer())).toString());
      expect(Object.keys(pack).sort()).toEqual([...keys].sort());
    }
  });

  test('a pack is a few KB; an unknown or stale name is a 404 in the error shape', async () => {
    for (const pack of languagePackSizes) expect(pack.gzip).toBeLessThan(4 * 1024);
    for (const path of ['/widget/i18n/de.000000000000.json', '/widget/i18n/xx.json', '/widget/i18n/__proto__']) {
      const response = await get(path);
      expect(response.status).toBe(404);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('not_found');
    }
  });
});
