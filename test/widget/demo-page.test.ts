/** The demo page at `/` (`calc serve --demo` from the sources) in real Chromium, under its own strict CSP. */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test';
import type { Browser } from 'playwright-core';
import { join } from 'node:path';
import { calculatorIds } from '../../src/calculators/index.ts';
import { ROOT, SOURCE_CLI, startServe } from '../helpers/process.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { launchChromium } from '../helpers/chromium.ts';
import { recordPage, screenshot } from './support/browser.ts';
import { recordCalcEvents } from './support/widget-page.ts';
import { HOOK_TIMEOUT_MS } from '../helpers/timeouts.ts';

let browser: Browser;
const dir = tempDir();
let server: Awaited<ReturnType<typeof startServe>>;

beforeAll(async () => {
  server = await startServe(SOURCE_CLI, ['--data', dir.path, '--demo']);
  browser = await launchChromium();
}, HOOK_TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  dir[Symbol.dispose]();
}, HOOK_TIMEOUT_MS);

test("a gallery of all 12 calculators with the customer snippet, under the page's strict CSP, with a language and theme switcher", async () => {
  const context = await browser.newContext();
  await recordCalcEvents(context);
  await context.addInitScript(() => {
    const seen: string[] = [];
    Object.defineProperty(window, 'cspViolations', { value: seen });
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(`${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  const page = await context.newPage();
  const record = recordPage(page);
  const response = await page.goto(`${server.url}/`);
  expect(response?.headers()['content-security-policy']).toStartWith("default-src 'none'; script-src 'self'");
  const html = (await response?.text()) ?? '';
  expect(html.match(/<script src="[^"]+\/widget\.js" async><\/script>/g)).toHaveLength(1);
  // The switcher is the page's own script, from 'self'.
  expect(html).toContain('<script src="/demo.js" async></script>');

  // Servers and a browser on a loaded machine: bun's 5 s per test is too short.
  setDefaultTimeout(60_000);

  const ids = await page.evaluate(() =>
    [...document.querySelectorAll('[data-calc-widget]')].map((element) => element.getAttribute('data-calc-id')),
  );
  expect(ids).toEqual([...calculatorIds]);
  await page.waitForFunction(
    (count) => (window.calcEvents ?? []).filter((event) => event.type === 'calc:ready').length === count,
    ids.length,
  );
  const results = await page.evaluate(() =>
    [...document.querySelectorAll('[data-calc-widget]')].map(
      (element) => element.shadowRoot?.querySelector('[part="result-value"]')?.textContent,
    ),
  );
  expect(results.every((text) => typeof text === 'string' && /\d/.test(text))).toBe(true);
  expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
  expect(record.pageErrors).toEqual([]);
  expect(record.warnings.filter((text) => text.startsWith('[calc]'))).toEqual([]);
  await screenshot(page, 'demo-page');

  // German and dark: every widget remounts from its changed attributes, in German, with euros.
  const readyBefore = await page.evaluate(
    () => (window.calcEvents ?? []).filter((e) => e.type === 'calc:ready').length,
  );
  await page.selectOption('#demo-language', 'de-DE');
  await page.selectOption('#demo-theme', 'dark');
  await page.waitForFunction(
    (count) => (window.calcEvents ?? []).filter((event) => event.type === 'calc:ready').length >= count,
    readyBefore + ids.length,
  );
  const german = await page.evaluate(() =>
    [...document.querySelectorAll('[data-calc-widget]')].map((element) => {
      const root = element.shadowRoot?.querySelector('.root');
      return {
        lang: root?.getAttribute('lang'),
        theme: root?.getAttribute('data-theme'),
        title: root?.querySelector('.title')?.textContent,
        roots: element.shadowRoot?.querySelectorAll('.root').length,
      };
    }),
  );
  expect(german.every((widget) => widget.lang === 'de' && widget.theme === 'dark' && widget.roots === 1)).toBe(true);
  expect(german[0]?.title).toBe('Body-Mass-Index (BMI)');
  const loan = await page.evaluate(
    () =>
      document.querySelector('[data-calc-id="loan"]')?.shadowRoot?.querySelector('[part="result-value"]')?.textContent,
  );
  expect(loan).toMatch(/^\d{1,3}(\.\d{3})*,\d{2}\s€$/);
  expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
  expect(record.pageErrors).toEqual([]);
  await page.setViewportSize({ width: 1180, height: 900 });
  await page.selectOption('#demo-theme', 'light');
  await page.selectOption('#demo-language', 'en-US');
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-calc-widget]')].every(
      (element) =>
        element.shadowRoot?.querySelector('.root')?.getAttribute('lang') === 'en' &&
        element.shadowRoot?.querySelector('.root')?.getAttribute('data-theme') === 'light',
    ),
  );
  expect(record.warnings.filter((text) => text.startsWith('[calc]'))).toEqual([]);
  // The gallery alone: the snippet below it names this run's random port.
  await page.locator('.gallery').screenshot({ path: join(ROOT, 'docs', 'images', 'demo-gallery.png') });
  await context.close();
});

test('without a demo account the page explains how to embed and mounts nothing', async () => {
  using other = tempDir();
  await using plain = await startServe(SOURCE_CLI, ['--data', other.path]);
  const html = await (await fetch(`${plain.url}/`)).text();
  expect(html).toContain('calc domains add');
  expect(html).toContain('data-api-key=&quot;pk_YOUR_KEY&quot;');
  expect(html).not.toContain('<script');
});
