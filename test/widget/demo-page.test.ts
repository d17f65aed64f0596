/** The demo page at `/` (`calc serve --demo` from the sources) in real Chromium, under its own strict CSP. */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import type { Browser } from 'playwright-core';
import { SOURCE_CLI, startServe } from '../helpers/process.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { launchChromium, recordPage, screenshot } from './support/browser.ts';
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

test("several calculators embedded with the customer snippet, working under the page's strict CSP", async () => {
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
  expect(html).not.toContain('demo.js');

  const ids = await page.evaluate(() =>
    [...document.querySelectorAll('[data-calc-widget]')].map((element) => element.getAttribute('data-calc-id')),
  );
  expect(ids).toContain('bmi');
  expect(ids.length).toBeGreaterThanOrEqual(4);
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
