import { describe, expect, test } from 'bun:test';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { LOCALES } from '../../../src/definition/locales.ts';
import { textIn } from '../../../src/definition/text.ts';

describe('owner text', () => {
  test("the languages are the widget's: English and one pack per language in widget/i18n", () => {
    const packs = readdirSync(join(import.meta.dir, '..', '..', '..', 'widget', 'i18n'))
      .filter((name) => name.endsWith('.json'))
      .map((name) => name.slice(0, -'.json'.length));
    expect([...LOCALES].sort() as string[]).toEqual(['en', ...packs].sort());
  });

  test('is shown in the language of the locale, else in English', () => {
    const text = { en: 'Weight', de: 'Gewicht' };
    expect(textIn(text, 'de')).toBe('Gewicht');
    expect(textIn(text, 'de-AT')).toBe('Gewicht');
    expect(textIn(text, 'DE-ch')).toBe('Gewicht');
    expect(textIn(text, 'fr')).toBe('Weight');
    expect(textIn(text, 'constructor')).toBe('Weight');
    expect(textIn('Weight', 'de')).toBe('Weight');
  });
});
