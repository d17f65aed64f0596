/**
 * The widget in real Chromium against the real API on another origin: mounting,
 * typing, units, keyboard use, events and the single-page-app API.
 */
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, test } from 'bun:test';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { launchChromium, screenshot, type PageRecord } from './support/browser.ts';
import { hostPage, startApi, startHostSite, type ApiServer, type HostSite } from './support/servers.ts';
import {
  band,
  closeRecordedPage,
  events,
  field,
  focused,
  openRecordedPage,
  resultValue,
  waitForEvent,
} from './support/widget-page.ts';
import { HOOK_TIMEOUT_MS } from '../helpers/timeouts.ts';

let browser: Browser;
let api: ApiServer;
let site: HostSite;
let apiKey: string;
let context: BrowserContext;
let page: Page;
let record: PageRecord;
let loads: Request[];

beforeAll(async () => {
  api = startApi();
  site = startHostSite();
  ({ apiKey } = await api.accountFor(site.origin));
  browser = await launchChromium();
}, HOOK_TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
  await api?.stop();
  await site?.stop();
}, HOOK_TIMEOUT_MS);

beforeEach(async () => {
  ({ context, page, record } = await openRecordedPage(browser));
  loads = [];
  page.on('request', (request) => {
    if (request.url().startsWith(api.url) && request.url().includes('/v1/')) loads.push(request);
  });
}, HOOK_TIMEOUT_MS);

afterEach(() => closeRecordedPage({ context, page, record }), HOOK_TIMEOUT_MS);

async function open(html: string, path = `/${crypto.randomUUID()}`): Promise<void> {
  await page.goto(site.page(path, html));
}

describe('mounting', () => {
  test('two widgets and the script included twice: exactly two mounted, two loads, no preflight', async () => {
    await open(
      hostPage({
        api: api.url,
        scriptTimes: 2,
        widgets: [
          { calcId: 'bmi', apiKey },
          { calcId: 'tip', apiKey },
        ],
      }),
    );
    await waitForEvent(page, 'calc:ready', 'w0');
    await waitForEvent(page, 'calc:ready', 'w1');
    // A third scan (as a single-page app would call it) changes nothing either.
    await page.evaluate(() => window.CalcWidget?.scan());
    const mounted = await page.evaluate(() =>
      [...document.querySelectorAll('[data-calc-widget]')].map((element) => ({
        open: element.shadowRoot !== null,
        roots: element.shadowRoot?.querySelectorAll('.root').length,
      })),
    );
    expect(mounted).toEqual([
      { open: true, roots: 1 },
      { open: true, roots: 1 },
    ]);
    expect(await events(page, 'calc:ready')).toHaveLength(2);
    expect(loads.map((request) => `${request.method()} ${new URL(request.url()).pathname}`)).toEqual([
      'POST /v1/widget/load',
      'POST /v1/widget/load',
    ]);
    for (const request of loads) {
      expect(request.headers()['content-type']).toBe('text/plain');
      expect(JSON.parse(request.postData() ?? '{}')).toMatchObject({ apiKey, domain: site.origin });
    }
    await screenshot(page, 'two-widgets');
  });

  test('renders the defaults at once, with the band label', async () => {
    await open(hostPage({ api: api.url, widgets: [{ calcId: 'bmi', apiKey }] }));
    await waitForEvent(page, 'calc:result', 'w0');
    expect(await field(page, 'w0', 'weight').inputValue()).toBe('70');
    expect(await field(page, 'w0', 'height').inputValue()).toBe('175');
    expect(await resultValue(page, 'w0').textContent()).toBe('22.9');
    expect(await band(page, 'w0').textContent()).toBe('Normal weight');
  });
});

describe('computing', () => {
  test('80 kg and 180 cm give a BMI of 24.7, and calc:result carries {calcId, values, result}', async () => {
    await open(hostPage({ api: api.url, widgets: [{ calcId: 'bmi', apiKey, attributes: 'data-units="metric"' }] }));
    await waitForEvent(page, 'calc:ready', 'w0');
    await field(page, 'w0', 'weight').fill('80');
    await field(page, 'w0', 'height').fill('180');
    expect(await resultValue(page, 'w0').textContent()).toBe('24.7');
    expect(await band(page, 'w0').textContent()).toBe('Normal weight');
    const last = (await events(page, 'calc:result', 'w0')).at(-1);
    expect(last?.detail).toMatchObject({ calcId: 'bmi', units: 'metric', values: { weight: 80, height: 180 } });
    expect((last?.detail.result as { bmi: number } | undefined)?.bmi).toBeCloseTo(24.691, 3);
    const changes = await events(page, 'calc:change', 'w0');
    expect(changes.at(-1)?.detail).toMatchObject({ calcId: 'bmi', key: 'height', value: 180 });
  });

  test('a decimal comma is read as a decimal point; the locale formats results', async () => {
    await open(hostPage({ api: api.url, widgets: [{ calcId: 'bmi', apiKey, attributes: 'data-locale="de-DE"' }] }));
    await waitForEvent(page, 'calc:ready', 'w0');
    await field(page, 'w0', 'weight').fill('80,5');
    await field(page, 'w0', 'height').fill('180');
    expect(await resultValue(page, 'w0').textContent()).toBe('24,8');
    await field(page, 'w0', 'weight').fill('80.5');
    expect(await resultValue(page, 'w0').textContent()).toBe('24,8');
    expect(await field(page, 'w0', 'weight').getAttribute('inputmode')).toBe('decimal');
  });

  test('switching to imperial converts the shown values; the BMI stays', async () => {
    await open(hostPage({ api: api.url, widgets: [{ calcId: 'bmi', apiKey }] }));
    await waitForEvent(page, 'calc:ready', 'w0');
    await field(page, 'w0', 'weight').fill('80');
    await field(page, 'w0', 'height').fill('180');
    await page.locator('#w0 input[type=radio][value=imperial]').check();
    expect(await field(page, 'w0', 'weight').inputValue()).toBe('176.4');
    expect(await field(page, 'w0', 'height').inputValue()).toBe('70.9');
    expect(await page.locator('#w0 #u-weight').textContent()).toBe('lb');
    expect(await page.locator('#w0 #u-height').textContent()).toBe('in');
    expect(await resultValue(page, 'w0').textContent()).toBe('24.7');
    expect((await events(page, 'calc:change', 'w0')).at(-1)?.detail).toMatchObject({ key: 'units', value: 'imperial' });
    await screenshot(page, 'bmi-imperial');
    await page.locator('#w0 input[type=radio][value=metric]').check();
    expect(await field(page, 'w0', 'weight').inputValue()).toBe('80');
  });

  test('data-units and the locale choose the starting unit system', async () => {
    await open(
      hostPage({
        api: api.url,
        lang: 'en-US',
        widgets: [
          { calcId: 'bmi', apiKey },
          { calcId: 'bmi', apiKey, attributes: 'data-units="metric"' },
          { calcId: 'bmi', apiKey, attributes: 'data-locale="fr-FR"' },
        ],
      }),
    );
    await waitForEvent(page, 'calc:result', 'w2');
    expect(await page.locator('#w0 #u-weight').textContent()).toBe('lb');
    expect(await page.locator('#w1 #u-weight').textContent()).toBe('kg');
    expect(await page.locator('#w2 #u-weight').textContent()).toBe('kg');
  });

  test('out of range: aria-invalid and a linked message; fixing the value clears both', async () => {
    await open(hostPage({ api: api.url, widgets: [{ calcId: 'bmi', apiKey, attributes: 'data-units="metric"' }] }));
    await waitForEvent(page, 'calc:ready', 'w0');
    const height = field(page, 'w0', 'height');
    await height.fill('300');
    await height.press('Tab');
    expect(await height.getAttribute('aria-invalid')).toBe('true');
    expect(await height.getAttribute('aria-describedby')).toBe('u-height e-height');
    expect(await page.locator('#w0 #e-height').textContent()).toBe('Enter a number from 40 to 272 cm.');
    expect(await resultValue(page, 'w0').textContent()).toBe('—');
    await screenshot(page, 'bmi-invalid');
    await height.fill('180');
    expect(await height.getAttribute('aria-invalid')).toBeNull();
    expect(await page.locator('#w0 #e-height').isHidden()).toBe(true);
    expect(await height.getAttribute('aria-describedby')).toBe('u-height');
    expect(await resultValue(page, 'w0').textContent()).not.toBe('—');
  });

  test('select fields render as <select>; visibleIf shows the hip field for women only', async () => {
    await open(
      hostPage({ api: api.url, widgets: [{ calcId: 'body-fat', apiKey, attributes: 'data-units="metric"' }] }),
    );
    await waitForEvent(page, 'calc:ready', 'w0');
    expect(
      await page.evaluate(() => document.querySelector('#w0')?.shadowRoot?.querySelector('[data-key=sex]')?.tagName),
    ).toBe('SELECT');
    expect(await field(page, 'w0', 'hip').isVisible()).toBe(false);
    const male = await resultValue(page, 'w0').textContent();
    await field(page, 'w0', 'sex').selectOption('female');
    expect(await field(page, 'w0', 'hip').isVisible()).toBe(true);
    expect(await resultValue(page, 'w0').textContent()).not.toBe(male);
    expect((await events(page, 'calc:result', 'w0')).at(-1)?.detail.values).toMatchObject({ sex: 'female', hip: 95 });
  });

  test('amounts use data-currency', async () => {
    await open(
      hostPage({
        api: api.url,
        widgets: [{ calcId: 'tip', apiKey, attributes: 'data-currency="USD" data-locale="en-US"' }],
      }),
    );
    await waitForEvent(page, 'calc:ready', 'w0');
    expect(await resultValue(page, 'w0', 1).textContent()).toBe('$57.50');
  });
});

describe('keyboard only', () => {
  test('Tab into the widget, type, switch units with arrows, Tab out: no trap, visible focus', async () => {
    await open(
      hostPage({
        api: api.url,
        before: '<button id="before">before</button>',
        after: '<a id="after" href="#after">after</a>',
        widgets: [{ calcId: 'bmi', apiKey, attributes: 'data-units="metric"' }],
      }),
    );
    await waitForEvent(page, 'calc:ready', 'w0');
    await page.locator('#before').focus();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('div#w0 > input[metric]');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('div#w0 > input#f-weight[weight]');
    const outline = await page.evaluate(() => {
      const active = document.querySelector('#w0')?.shadowRoot?.activeElement;
      return active ? `${getComputedStyle(active).outlineStyle} ${getComputedStyle(active).outlineWidth}` : '';
    });
    expect(outline).toBe('solid 3px');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('80');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('div#w0 > input#f-height[height]');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('180');
    expect(await resultValue(page, 'w0').textContent()).toBe('24.7');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    expect(await focused(page)).toBe('div#w0 > input[metric]');
    await page.keyboard.press('ArrowRight');
    expect(await field(page, 'w0', 'weight').inputValue()).toBe('176.4');
    // Enter in a field does not submit or reload anything.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    expect(await field(page, 'w0', 'weight').inputValue()).toBe('176.4');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('a#after');
  });
});

describe('single-page apps', () => {
  test('destroy, mount again and mount a new element with options; no duplicate listeners', async () => {
    await open(hostPage({ api: api.url, widgets: [{ calcId: 'bmi', apiKey }] }));
    await waitForEvent(page, 'calc:ready', 'w0');
    await page.evaluate(() => {
      const element = document.querySelector('#w0');
      if (element) window.CalcWidget?.destroy(element);
    });
    expect(await page.evaluate(() => document.querySelector('#w0')?.shadowRoot?.childElementCount)).toBe(0);
    await page.evaluate(() => {
      const element = document.querySelector('#w0');
      if (element) window.CalcWidget?.mount(element);
    });
    await page.waitForFunction(
      () => (window.calcEvents ?? []).filter((event) => event.type === 'calc:ready').length === 2,
    );
    const before = (await events(page, 'calc:result', 'w0')).length;
    await field(page, 'w0', 'weight').fill('81');
    expect((await events(page, 'calc:result', 'w0')).length).toBe(before + 1);

    await page.evaluate((key) => {
      const element = document.createElement('div');
      element.id = 'spa';
      document.body.append(element);
      window.CalcWidget?.mount(element, { calcId: 'vat', apiKey: key, currency: 'EUR', locale: 'en-IE' });
      window.CalcWidget?.mount(element, { calcId: 'vat', apiKey: key });
    }, apiKey);
    await waitForEvent(page, 'calc:ready', 'spa');
    expect(await resultValue(page, 'spa', 2).textContent()).toBe('€120.00');
    expect(
      await page.evaluate(() => document.querySelector('#spa')?.shadowRoot?.querySelectorAll('.root').length),
    ).toBe(1);
    expect(loads).toHaveLength(3);
  });
});
