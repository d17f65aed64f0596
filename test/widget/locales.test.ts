/**
 * The widget in eight languages, in real Chromium: each language renders every calculator
 * with no English left where a translation exists, numbers and currencies in the locale's
 * format, one pack request per language and page (none for English), English for a
 * language without a pack, and all of it under the strict host policy with packs loading.
 */
import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Request } from 'playwright-core';
import { calculatorIds } from '../../src/calculators/index.ts';
import { translatableTexts } from '../../widget/build/texts.ts';
import { ROOT } from '../helpers/process.ts';
import { hostPage } from './support/servers.ts';
import { field, resultValue, waitForEvent } from './support/widget-page.ts';
import { recordCspViolations, strictPolicy, useWidgetPage } from './support/widget-suite.ts';

// Whole pages of widgets in a real browser: a loaded machine must not turn that into a failure.
setDefaultTimeout(60_000);

const keys = new Set(translatableTexts());
const packOf = (language: string): Record<string, string> =>
  JSON.parse(readFileSync(join(ROOT, 'widget', 'i18n', `${language}.json`), 'utf8'));
const packRequests: Request[] = [];
const suite = useWidgetPage({
  account: true,
  context: { locale: 'en-GB' },
  onPage(page) {
    packRequests.length = 0;
    page.on('request', (request) => {
      if (request.url().includes('/widget/i18n/')) packRequests.push(request);
    });
  },
});

/** Every text node in a widget's shadow root, trimmed, with option labels. */
function shownTexts(host: string): Promise<string[]> {
  return suite.page.evaluate((host) => {
    const root = document.querySelector(`#${host}`)?.shadowRoot;
    if (!root) return [];
    const texts: string[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim();
      if (text) texts.push(text);
    }
    return texts;
  }, host);
}

/** Formats like the locale does, in the page: the widget must agree with Intl there. */
function intl(locale: string, value: number, options: Intl.NumberFormatOptions): Promise<string> {
  return suite.page.evaluate(({ locale, value, options }) => new Intl.NumberFormat(locale, options).format(value), {
    locale,
    value,
    options,
  });
}

const LOCALES = [
  { locale: 'de-DE', language: 'de', bmi: '22,9', loan: '400,76 €', fuelPrice: '1,8' },
  { locale: 'fr-FR', language: 'fr', bmi: '22,9', loan: '400,76 €', fuelPrice: '1,8' },
  { locale: 'es-ES', language: 'es', bmi: '22,9', loan: '400,76 €', fuelPrice: '1,8' },
  { locale: 'it-IT', language: 'it', bmi: '22,9', loan: '400,76 €', fuelPrice: '1,8' },
  { locale: 'nl-NL', language: 'nl', bmi: '22,9', loan: '€ 400,76', fuelPrice: '1,8' },
  { locale: 'pt-BR', language: 'pt', bmi: '22,9', loan: 'R$ 400,76', fuelPrice: '1,8', currency: 'BRL' },
  { locale: 'pl-PL', language: 'pl', bmi: '22,9', loan: '400,76 zł', fuelPrice: '1,8', currency: 'PLN' },
];

describe('eight languages', () => {
  test.each(LOCALES)(
    '$locale: all 12 calculators translated, numbers and currency in the locale format, one pack request',
    async ({ locale, language, bmi, loan, fuelPrice, currency = 'EUR' }) => {
      const pack = packOf(language);
      await suite.open(
        hostPage({
          api: suite.api.url,
          lang: 'en',
          widgets: calculatorIds.map((calcId) => ({
            calcId,
            apiKey: suite.apiKey,
            id: calcId.replace(/-/g, '_'),
            attributes: `data-locale="${locale}" data-currency="${currency}" data-units="metric"`,
          })),
        }),
      );
      for (const calcId of calculatorIds) await waitForEvent(suite.page, 'calc:ready', calcId.replace(/-/g, '_'));
      for (const calcId of calculatorIds) {
        const host = calcId.replace(/-/g, '_');
        const texts = await shownTexts(host);
        // A text that is a key with a different translation means English leaked through.
        const untranslated = texts.filter((text) => keys.has(text) && pack[text] !== text);
        expect({ calcId, untranslated }).toEqual({ calcId, untranslated: [] });
        expect(texts.length).toBeGreaterThan(5);
        expect(await suite.page.locator(`#${host} .root`).getAttribute('lang')).toBe(language);
      }
      expect(await suite.page.locator('#bmi .title').textContent()).toBe(pack['Body Mass Index (BMI)'] ?? '');
      // Decimal comma, grouping and currency placement as the locale writes them.
      const normalise = (text: string | null) => (text ?? '').replace(/[\u00a0\u202f]/g, ' ');
      expect(normalise(await resultValue(suite.page, 'bmi').textContent())).toBe(bmi);
      expect(normalise(await resultValue(suite.page, 'loan').textContent())).toBe(loan);
      expect(await resultValue(suite.page, 'loan').textContent()).toBe(
        await intl(locale, 400.7568, {
          style: 'currency',
          currency,
          minimumFractionDigits: 2,
          maximumFractionDigits: 2,
        }),
      );
      expect(await resultValue(suite.page, 'mortgage').textContent()).toBe(
        await intl(locale, 2514.28, {
          style: 'currency',
          currency,
          minimumFractionDigits: 2,
          maximumFractionDigits: 2,
        }),
      );
      expect(await field(suite.page, 'fuel_cost', 'fuelPrice').inputValue()).toBe(fuelPrice);
      // The visitor types with the locale's decimal comma.
      await field(suite.page, 'bmi', 'weight').fill('80,5');
      expect(normalise(await resultValue(suite.page, 'bmi').textContent())).toBe('26,3');
      // Twelve widgets, one pack, fetched once from the script's origin.
      expect(packRequests.map((request) => new URL(request.url()).pathname)).toEqual([
        expect.stringMatching(new RegExp(`^/widget/i18n/${language}\\.[0-9a-f]{12}\\.json$`)),
      ]);
    },
  );

  test('English needs no pack; a language without a pack shows English; <html lang> and the browser choose too', async () => {
    await suite.open(
      hostPage({
        api: suite.api.url,
        lang: 'en-US',
        widgets: [
          { calcId: 'bmi', apiKey: suite.apiKey },
          { calcId: 'bmi', apiKey: suite.apiKey, attributes: 'data-locale="ja-JP"' },
        ],
      }),
    );
    await waitForEvent(suite.page, 'calc:ready', 'w1');
    expect(await suite.page.locator('#w0 .title').textContent()).toBe('Body Mass Index (BMI)');
    expect(await suite.page.locator('#w1 .title').textContent()).toBe('Body Mass Index (BMI)');
    expect(await suite.page.locator('#w1 .root').getAttribute('lang')).toBe('en');
    expect(packRequests).toEqual([]);

    await suite.open(hostPage({ api: suite.api.url, lang: 'nl', widgets: [{ calcId: 'tip', apiKey: suite.apiKey }] }));
    await waitForEvent(suite.page, 'calc:ready', 'w0');
    expect(await suite.page.locator('#w0 .title').textContent()).toBe('Fooi en rekening delen');

    await suite.context.close();
    await suite.reopen({ locale: 'pl-PL' });
    await suite.open(
      `<!doctype html><html><head><meta charset="utf-8"><title>no lang</title></head><body><div id="w0" data-calc-widget data-calc-id="vat" data-api-key="${suite.apiKey}"></div><script src="${suite.api.url}/widget.js" async></script></body></html>`,
    );
    await waitForEvent(suite.page, 'calc:ready', 'w0');
    expect(await suite.page.locator('#w0 .title').textContent()).toBe('VAT / podatek od sprzedaży');
    expect(await suite.page.locator('#w0 label[for="f-mode"]').textContent()).toBe('Kwota jest');
  });

  test('messages are translated too: the range message and "calculator unavailable"', async () => {
    await suite.open(
      hostPage({
        api: suite.api.url,
        widgets: [
          { calcId: 'bmi', apiKey: suite.apiKey, attributes: 'data-locale="de-DE" data-units="metric"' },
          { calcId: 'bmi', apiKey: 'pk_thisKeyDoesNotExist000000', attributes: 'data-locale="fr"' },
        ],
      }),
    );
    await waitForEvent(suite.page, 'calc:ready', 'w0');
    await field(suite.page, 'w0', 'height').fill('999');
    await field(suite.page, 'w0', 'height').press('Tab');
    expect(await suite.page.locator('#w0 #e-height').textContent()).toBe('Geben Sie eine Zahl von 40 bis 272 cm ein.');
    await waitForEvent(suite.page, 'calc:error', 'w1');
    expect(await suite.page.locator('#w1 [part~="unavailable"]').textContent()).toBe('Calculateur indisponible');
  });

  test('a pack that cannot load leaves a working widget in English', async () => {
    await suite.page.route('**/widget/i18n/**', (route) => route.abort());
    await suite.open(
      hostPage({
        api: suite.api.url,
        widgets: [{ calcId: 'bmi', apiKey: suite.apiKey, attributes: 'data-locale="it-IT"' }],
      }),
    );
    await waitForEvent(suite.page, 'calc:ready', 'w0');
    expect(await suite.page.locator('#w0 .title').textContent()).toBe('Body Mass Index (BMI)');
    // The numbers still follow the locale.
    expect(await resultValue(suite.page, 'w0').textContent()).toBe('22,9');
  });
});

describe('strict host policy', () => {
  test('packs load under default-src none with only the API origin allowed: no violation', async () => {
    await recordCspViolations(suite.context);
    const policy = strictPolicy(suite.api.url);
    await suite.open(
      hostPage({
        api: suite.api.url,
        widgets: [
          { calcId: 'bmi', apiKey: suite.apiKey, attributes: 'data-locale="es-ES" data-units="metric"' },
          { calcId: 'body-fat', apiKey: suite.apiKey, attributes: 'data-locale="pl-PL" data-theme="dark"' },
        ],
      }),
      { headers: { 'content-security-policy': policy } },
    );
    await waitForEvent(suite.page, 'calc:ready', 'w0');
    await waitForEvent(suite.page, 'calc:ready', 'w1');
    expect(await suite.page.locator('#w0 .title').textContent()).toBe('Índice de masa corporal (IMC)');
    expect(await suite.page.locator('#w1 .title').textContent()).toBe('Tkanka tłuszczowa % (metoda U.S. Navy)');
    expect(await suite.page.locator('#w0 [part="band"]').textContent()).toBe('Peso normal');
    expect(packRequests.length).toBe(2);
    expect(await suite.page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual(
      [],
    );
    expect(suite.record.consoleErrors.filter((text) => /Content Security Policy|Refused to/i.test(text))).toEqual([]);
  });
});
