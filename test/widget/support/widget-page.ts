/** Reading and driving widgets in a page (Playwright's CSS locators pierce open shadow roots). */
import { expect } from 'bun:test';
import type { Browser, BrowserContext, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { recordPage, type PageRecord } from './browser.ts';
import type { HostSite } from './servers.ts';

export interface RecordedEvent {
  type: string;
  host: string;
  detail: Record<string, unknown>;
}

declare global {
  interface Window {
    calcEvents?: RecordedEvent[];
  }
}

/** Records every calc:* event that reaches the document, from before the first script runs. */
export async function recordCalcEvents(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    window.calcEvents = [];
    for (const type of ['calc:ready', 'calc:change', 'calc:result', 'calc:error']) {
      document.addEventListener(type, (event) => {
        const host = event.target instanceof Element ? event.target.id : '';
        window.calcEvents?.push({ type, host, detail: JSON.parse(JSON.stringify((event as CustomEvent).detail)) });
      });
    }
  });
}

export function events(page: Page, type?: string, host?: string): Promise<RecordedEvent[]> {
  return page.evaluate(
    ({ type, host }) =>
      (window.calcEvents ?? []).filter((event) => (!type || event.type === type) && (!host || event.host === host)),
    { type, host },
  );
}

export async function waitForEvent(page: Page, type: string, host: string): Promise<RecordedEvent> {
  await page.waitForFunction(
    ({ type, host }) => (window.calcEvents ?? []).some((event) => event.type === type && event.host === host),
    { type, host },
  );
  const found = await events(page, type, host);
  const last = found.at(-1);
  if (!last) throw new Error(`no ${type} on #${host}`);
  return last;
}

export const field = (page: Page, host: string, key: string): Locator => page.locator(`#${host} [data-key="${key}"]`);
export const resultValue = (page: Page, host: string, index = 0): Locator =>
  page.locator(`#${host} [part="result-value"]`).nth(index);
export const band = (page: Page, host: string, index = 0): Locator => page.locator(`#${host} [part="band"]`).nth(index);
export const unavailableNote = (page: Page, host: string): Locator => page.locator(`#${host} [part~="unavailable"]`);

/** The element focused inside shadow roots, as "host#id > tag[data-key|value]". */
export function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    let active = document.activeElement;
    const path: string[] = [];
    while (active) {
      const key =
        active.getAttribute('data-key') ??
        (active instanceof HTMLInputElement && active.type === 'radio' ? active.value : '');
      path.push(`${active.tagName.toLowerCase()}${active.id ? `#${active.id}` : ''}${key ? `[${key}]` : ''}`);
      active = active.shadowRoot?.activeElement ?? null;
    }
    return path.join(' > ');
  });
}

export interface RecordedPage {
  context: BrowserContext;
  page: Page;
  record: PageRecord;
}

/** A fresh browser context and page that record calc events, page errors and warnings. */
export async function openRecordedPage(browser: Browser, options: BrowserContextOptions = {}): Promise<RecordedPage> {
  const context = await browser.newContext(options);
  await recordCalcEvents(context);
  const page = await context.newPage();
  return { context, page, record: recordPage(page) };
}

/**
 * Serves `html` on the host site, under a fresh path unless `path` is given, with extra
 * response `headers`, and opens it in `page`; answers its URL.
 */
export async function openHostPage(
  page: Page,
  site: HostSite,
  html: string,
  options: { headers?: Record<string, string>; path?: string } = {},
): Promise<string> {
  const url = site.page(options.path ?? `/${crypto.randomUUID()}`, html, options.headers);
  await page.goto(url);
  return url;
}

/** Ends a test's page: an uncaught error in the host page fails the test. */
export async function closeRecordedPage(opened: RecordedPage): Promise<void> {
  expect(opened.record.pageErrors).toEqual([]);
  await opened.context.close();
}
