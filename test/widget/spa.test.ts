/**
 * Single-page apps in real Chromium: elements added after load mount by themselves,
 * removed ones release their listeners, observers and in-flight load, a moved element
 * keeps its widget, changed attributes remount it, calls made before the script arrived
 * run from the window.calc queue, and the React example of docs/embedding.md works.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { join } from 'node:path';
import type { Page, Request } from 'playwright-core';
import { events, field, resultValue, waitForEvent } from './support/widget-page.ts';
import { useWidgetPage } from './support/widget-suite.ts';

// Whole pages of widgets in a real browser: a loaded machine must not turn that into a failure.
setDefaultTimeout(60_000);

let page: Page;
let loads: Request[];
let slowKey: string;
let releaseSlow = () => {};

const suite = useWidgetPage({ account: true, onPage: watch });

beforeAll(async () => {
  // The slow account's loan webhook answers when the test lets it go: a load stays in flight.
  const held = new Promise<void>((resolve) => {
    releaseSlow = resolve;
  });
  slowKey = await suite.accountWithPrefill({}, held, 'loan');
});

afterAll(() => releaseSlow());

declare global {
  interface Window {
    live?: { listeners: Set<{ target: EventTarget; type: string }>; observers: Set<MutationObserver> };
  }
}

/** Each test's page: what the widget holds is counted, its loads are recorded. */
async function watch(opened: Page): Promise<void> {
  page = opened;
  // Counts what the widget script still holds: listeners it added and did not remove (nor
  // release through their signal), observers it started and did not disconnect. The
  // script is told apart from the page and the test harness by its URL in the stack.
  await page.addInitScript(() => {
    const live = {
      listeners: new Set<{ target: EventTarget; type: string }>(),
      observers: new Set<MutationObserver>(),
    };
    window.live = live;
    const fromWidget = () => (new Error().stack ?? '').includes('/widget.js');
    const add = EventTarget.prototype.addEventListener;
    const remove = EventTarget.prototype.removeEventListener;
    const entries = new Map<unknown, { target: EventTarget; type: string }>();
    EventTarget.prototype.addEventListener = function (type, listener, options) {
      const signal = typeof options === 'object' ? options?.signal : undefined;
      if (fromWidget() && !signal?.aborted && listener) {
        const entry = { target: this, type };
        live.listeners.add(entry);
        entries.set(listener, entry);
        if (signal) add.call(signal, 'abort', () => live.listeners.delete(entry));
        // Once fired, a once-listener is gone; so is an abort listener once its signal aborted.
        if ((typeof options === 'object' && options?.once) || (this instanceof AbortSignal && type === 'abort'))
          add.call(this, type, () => live.listeners.delete(entry), { once: true });
      }
      return add.call(this, type, listener, options);
    };
    EventTarget.prototype.removeEventListener = function (type, listener, options) {
      const entry = entries.get(listener);
      if (entry) live.listeners.delete(entry);
      return remove.call(this, type, listener, options);
    };
    const observe = MutationObserver.prototype.observe;
    const disconnect = MutationObserver.prototype.disconnect;
    MutationObserver.prototype.observe = function (target, options) {
      if (fromWidget()) live.observers.add(this);
      return observe.call(this, target, options);
    };
    MutationObserver.prototype.disconnect = function () {
      live.observers.delete(this);
      return disconnect.call(this);
    };
  });
  loads = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/v1/widget/load')) loads.push(request);
  });
}

async function openApp(body: string, head = ''): Promise<void> {
  await suite.open(
    `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><title>app</title>${head}</head><body><main id="app">${body}</main></body></html>`,
  );
}

const widgetScript = () => `<script src="${suite.api.url}/widget.js"></script>`;

/** What the widget still holds: listeners on removed nodes, on document/window, on anything; observers. */
function held(): Promise<{ detached: number; global: number; all: number; observers: number }> {
  return page.evaluate(() => {
    const listeners = [...(window.live?.listeners ?? [])];
    return {
      detached: listeners.filter((entry) => entry.target instanceof Node && !entry.target.isConnected).length,
      global: listeners.filter((entry) => entry.target === document || entry.target === window).length,
      all: listeners.length,
      observers: window.live?.observers.size ?? 0,
    };
  });
}

function addWidget(id: string, calcId: string, key: string, attributes: Record<string, string> = {}): Promise<void> {
  return page.evaluate(
    ({ id, calcId, key, attributes }) => {
      // The plain-JS example of docs/embedding.md.
      const element = document.createElement('div');
      element.id = id;
      element.dataset.calcWidget = '';
      element.dataset.calcId = calcId;
      element.dataset.apiKey = key;
      for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
      document.querySelector('#app')?.append(element);
    },
    { id, calcId, key, attributes },
  );
}

describe('elements added and removed after load', () => {
  test('added elements mount by themselves; removed ones release listeners, observers and the pending load', async () => {
    await openApp('', widgetScript());
    const baseline = await held();
    // The loader's one observer; no listener once the page has loaded.
    expect(baseline).toEqual({ detached: 0, global: 0, all: 0, observers: 1 });

    await addWidget('a', 'bmi', suite.apiKey);
    await addWidget('b', 'tip', suite.apiKey, { 'data-theme': 'auto' });
    await waitForEvent(page, 'calc:ready', 'a');
    await waitForEvent(page, 'calc:ready', 'b');
    await field(page, 'a', 'weight').fill('80');
    expect(await resultValue(page, 'a').textContent()).toBe('26.1');
    // The auto theme watches the page: one more observer while it lives; each form listens;
    // each widget that reports its funnel hears when the page is hidden.
    expect(await held()).toMatchObject({ detached: 0, global: 2, observers: 2 });
    expect((await held()).all).toBeGreaterThan(0);

    // A widget whose load is still in flight when the app removes it.
    const aborted = page.waitForEvent('requestfailed', (request) => request.url().endsWith('/v1/widget/load'));
    await addWidget('c', 'loan', slowKey);
    await page.waitForFunction(() => document.querySelector('#c')?.shadowRoot?.querySelector('.root') !== null);
    expect(loads.length).toBe(3);

    await page.evaluate(() => {
      for (const id of ['a', 'b', 'c']) document.getElementById(id)?.remove();
    });
    const failed = await aborted;
    expect(failed.failure()?.errorText).toBe('net::ERR_ABORTED');
    await page.waitForFunction(() => (window.live?.observers.size ?? 0) === 1);
    expect(await held()).toEqual(baseline);
    // Nothing was thrown or warned: an abort on removal is not an error.
    expect(suite.record.warnings.filter((text) => text.startsWith('[calc]'))).toEqual([]);
    expect(await events(page, 'calc:error')).toEqual([]);
    releaseSlow();
  });

  test('many add/remove rounds leave nothing behind', async () => {
    await openApp('', widgetScript());
    const baseline = await held();
    for (let round = 0; round < 5; round++) {
      await addWidget(`r${round}`, 'percentage', suite.apiKey, { 'data-theme': 'auto' });
      await waitForEvent(page, 'calc:ready', `r${round}`);
      await page.evaluate((id) => document.getElementById(id)?.remove(), `r${round}`);
    }
    expect(await held()).toEqual(baseline);
  });

  test('a moved element keeps its widget and typed value; a changed attribute remounts it', async () => {
    await openApp('<section id="left"></section><section id="right"></section>', widgetScript());
    await addWidget('m', 'bmi', suite.apiKey);
    await waitForEvent(page, 'calc:ready', 'm');
    await field(page, 'm', 'weight').fill('81');
    await page.evaluate(() => {
      const element = document.getElementById('m');
      if (element) document.getElementById('right')?.append(element);
    });
    // A remount would have sent a second load and reset the field.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve))));
    expect(loads.length).toBe(1);
    expect(await field(page, 'm', 'weight').inputValue()).toBe('81');

    await page.evaluate(() => {
      const element = document.getElementById('m');
      if (element) {
        element.dataset.locale = 'de-DE';
        element.dataset.theme = 'dark';
      }
    });
    await page.waitForFunction(
      () => document.querySelector('#m')?.shadowRoot?.querySelector('.root')?.getAttribute('lang') === 'de',
    );
    await page.waitForFunction(() => (window.calcEvents ?? []).filter((e) => e.type === 'calc:ready').length === 2);
    expect(loads.length).toBe(2);
    expect(await page.locator('#m .title').textContent()).toBe('Body-Mass-Index (BMI)');
    expect(await page.locator('#m .root').getAttribute('data-theme')).toBe('dark');
    expect(await page.evaluate(() => document.querySelector('#m')?.shadowRoot?.querySelectorAll('.root').length)).toBe(
      1,
    );
  });
});

describe('calls before the script arrives', () => {
  test('window.calc queues mount calls; after load calc() acts at once', async () => {
    await openApp(
      '<div id="q1"></div><div id="q2"></div>',
      `<script>
        window.calc = window.calc || function () { (window.calc.q = window.calc.q || []).push(arguments); };
      </script>`,
    );
    await page.evaluate(
      ({ apiKey }) => {
        const calc = window.calc as (...args: unknown[]) => void;
        calc('mount', document.getElementById('q1'), { calcId: 'loan', apiKey, currency: 'EUR', locale: 'de-DE' });
        calc('mount', document.getElementById('q2'), { calcId: 'vat', apiKey });
      },
      { apiKey: suite.apiKey },
    );
    expect(await page.evaluate(() => document.getElementById('q1')?.shadowRoot ?? null)).toBeNull();
    await page.addScriptTag({ url: `${suite.api.url}/widget.js` });
    await waitForEvent(page, 'calc:ready', 'q1');
    await waitForEvent(page, 'calc:ready', 'q2');
    expect(await resultValue(page, 'q1').textContent()).toBe('400,76\u00a0€');
    await page.evaluate(() => (window.calc as (...args: unknown[]) => void)('destroy', document.getElementById('q2')));
    expect(await page.evaluate(() => document.getElementById('q2')?.shadowRoot?.childElementCount)).toBe(0);
    // Mounted by mount(), not by the attribute: the element still has no data-calc-widget.
    expect(await page.evaluate(() => document.getElementById('q1')?.hasAttribute('data-calc-widget'))).toBe(false);
  });
});

describe('React', () => {
  test('the docs example mounts, follows prop changes and releases everything on unmount', async () => {
    const built = await Bun.build({
      entrypoints: [join(import.meta.dir, 'fixtures', 'react-app.tsx')],
      target: 'browser',
      format: 'iife',
      minify: true,
      define: { 'process.env.NODE_ENV': '"production"' },
    });
    if (!built.success) throw new AggregateError(built.logs, 'the React fixture did not build');
    const app = suite.site.page(`/${crypto.randomUUID()}.js`, (await built.outputs[0]?.text()) ?? '', {
      'content-type': 'text/javascript; charset=utf-8',
    });
    await suite.open(
      `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><title>react</title>
<script src="${suite.api.url}/widget.js" async></script></head><body><div id="app"></div>
<script>window.reactTest = { apiKey: ${JSON.stringify(suite.apiKey)} };</script><script src="${app}"></script></body></html>`,
    );
    const widget = page.locator('[data-calc-widget]');
    await page.waitForFunction(() => (window.calcEvents ?? []).some((e) => e.type === 'calc:ready'));
    expect(await page.locator('[data-calc-widget] .title').textContent()).toBe('Body Mass Index (BMI)');
    await page.locator('[data-calc-widget] [data-key="weight"]').fill('90');
    await page.waitForFunction(() => document.getElementById('last')?.textContent === 'bmi:bmi');

    await page.click('#german');
    await page.waitForFunction(
      () =>
        document.querySelector('[data-calc-widget]')?.shadowRoot?.querySelector('.root')?.getAttribute('lang') === 'de',
    );
    await page.click('#tip');
    await page.waitForFunction(
      () =>
        document.querySelector('[data-calc-widget]')?.shadowRoot?.querySelector('.title')?.textContent ===
        'Trinkgeld & Rechnung teilen',
    );
    await page.waitForFunction(() => document.getElementById('last')?.textContent === 'tip:tip,total,perPerson');
    expect(await widget.count()).toBe(1);

    await page.click('#toggle');
    await page.waitForFunction(() => document.querySelector('[data-calc-widget]') === null);
    await page.waitForFunction(() => (window.live?.observers.size ?? 0) === 1);
    expect(await held()).toEqual({ detached: 0, global: 0, all: 0, observers: 1 });

    await page.click('#toggle');
    await page.waitForFunction(
      () =>
        document.querySelector('[data-calc-widget]')?.shadowRoot?.querySelector('.title')?.textContent ===
        'Trinkgeld & Rechnung teilen',
    );
    expect(suite.record.pageErrors).toEqual([]);
  });
});
