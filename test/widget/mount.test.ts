/**
 * The widget in real Chromium against the real API on another origin: mounting,
 * typing, units, keyboard use, events and the single-page-app API.
 */
import { describe, expect, test } from 'bun:test';
import type { Request } from 'playwright-core';
import { screenshot } from './support/browser.ts';
import { hostPage } from './support/servers.ts';
import { band, events, field, focused, resultValue, waitForEvent } from './support/widget-page.ts';
import { useWidgetPage } from './support/widget-suite.ts';

const loads: Request[] = [];
const suite = useWidgetPage({
  account: true,
  onPage(page) {
    loads.length = 0;
    page.on('request', (request) => {
      // The funnel's reports go by themselves a second later (test/widget/funnel.test.ts).
      const url = request.url();
      if (url.startsWith(suite.api.url) && url.includes('/v1/') && !url.endsWith('/v1/widget/events'))
        loads.push(request);
    });
  },
});

describe('mounting', () => {
  test('two widgets and the script included twice: exactly two mounted, two loads, no preflight', async () => {
    await suite.open(
      hostPage({
        api: suite.api.url,
        scriptTimes: 2,
        widgets: [
          { calcId: 'bmi', apiKey: suite.apiKey },
          { calcId: 'tip', apiKey: suite.apiKey },
        ],
      }),
    );
    await waitForEvent(suite.page, 'calc:ready', 'w0');
    await waitForEvent(suite.page, 'calc:ready', 'w1');
    // A third scan (as a single-page app would call it) changes nothing either.
    await suite.page.evaluate(() => window.CalcWidget?.scan());
    const mounted = await suite.page.evaluate(() =>
      [...document.querySelectorAll('[data-calc-widget]')].map((element) => ({
        open: element.shadowRoot !== null,
        roots: element.shadowRoot?.querySelectorAll('.root').length,
      })),
    );
    expect(mounted).toEqual([
      { open: true, roots: 1 },
      { open: true, roots: 1 },
    ]);
    expect(await events(suite.page, 'calc:ready')).toHaveLength(2);
    expect(loads.map((request) => `${request.method()} ${new URL(request.url()).pathname}`)).toEqual([
      'POST /v1/widget/load',
      'POST /v1/widget/load',
    ]);
    for (const request of loads) {
      expect(request.headers()['content-type']).toBe('text/plain');
      expect(JSON.parse(request.postData() ?? '{}')).toMatchObject({ apiKey: suite.apiKey, domain: suite.site.origin });
    }
    await screenshot(suite.page, 'two-widgets');
  });

  test('renders the defaults at once, with the band label', async () => {
    await suite.open(hostPage({ api: suite.api.url, widgets: [{ calcId: 'bmi', apiKey: suite.apiKey }] }));
    await waitForEvent(suite.page, 'calc:result', 'w0');
    expect(await field(suite.page, 'w0', 'weight').inputValue()).toBe('70');
    expect(await field(suite.page, 'w0', 'height').inputValue()).toBe('175');
    expect(await resultValue(suite.page, 'w0').textContent()).toBe('22.9');
    expect(await band(suite.page, 'w0').textContent()).toBe('Normal weight');
  });
});

describe('computing', () => {
  test('80 kg and 180 cm give a BMI of 24.7, and calc:result carries {calcId, values, result}', async () => {
    await suite.open(
      hostPage({
        api: suite.api.url,
        widgets: [{ calcId: 'bmi', apiKey: suite.apiKey, attributes: 'data-units="metric"' }],
      }),
    );
    await waitForEvent(suite.page, 'calc:ready', 'w0');
    await field(suite.page, 'w0', 'weight').fill('80');
    await field(suite.page, 'w0', 'height').fill('180');
    expect(await resultValue(suite.page, 'w0').textContent()).toBe('24.7');
    expect(await band(suite.page, 'w0').textContent()).toBe('Normal weight');
    const last = (await events(suite.page, 'calc:result', 'w0')).at(-1);
    expect(last?.detail).toMatchObject({ calcId: 'bmi', units: 'metric', values: { weight: 80, height: 180 } });
    expect((last?.detail.result as { bmi: number } | undefined)?.bmi).toBeCloseTo(24.691, 3);
    const changes = await events(suite.page, 'calc:change', 'w0');
    expect(changes.at(-1)?.detail).toMatchObject({ calcId: 'bmi', key: 'height', value: 180 });
  });

  test('a decimal comma is read as a decimal point; the locale formats results', async () => {
    await suite.open(
      hostPage({
        api: suite.api.url,
        widgets: [{ calcId: 'bmi', apiKey: suite.apiKey, attributes: 'data-locale="de-DE"' }],
      }),
    );
    await waitForEvent(suite.page, 'calc:ready', 'w0');
    await field(suite.page, 'w0', 'weight').fill('80,5');
    await field(suite.page, 'w0', 'height').fill('180');
    expect(await resultValue(suite.page, 'w0').textContent()).toBe('24,8');
    await field(suite.page, 'w0', 'weight').fill('80.5');
    expect(await resultValue(suite.page, 'w0').textContent()).toBe('24,8');
    expect(await field(suite.page, 'w0', 'weight').getAttribute('inputmode')).toBe('decimal');
  });

  test('switching to imperial converts the shown values; the BMI stays', async () => {
    await suite.open(hostPage({ api: suite.api.url, widgets: [{ calcId: 'bmi', apiKey: suite.apiKey }] }));
    await waitForEvent(suite.page, 'calc:ready', 'w0');
    await field(suite.page, 'w0', 'weight').fill('80');
    await field(suite.page, 'w0', 'height').fill('180');
    await suite.page.locator('#w0 input[type=radio][value=imperial]').check();
    expect(await field(suite.page, 'w0', 'weight').inputValue()).toBe('176.4');
    expect(await field(suite.page, 'w0', 'height').inputValue()).toBe('70.9');
    expect(await suite.page.locator('#w0 #u-weight').textContent()).toBe('lb');
    expect(await suite.page.locator('#w0 #u-height').textContent()).toBe('in');
    expect(await resultValue(suite.page, 'w0').textContent()).toBe('24.7');
    expect((await events(suite.page, 'calc:change', 'w0')).at(-1)?.detail).toMatchObject({
      key: 'units',
      value: 'imperial',
    });
    await screenshot(suite.page, 'bmi-imperial');
    await suite.page.locator('#w0 input[type=radio][value=metric]').check();
    expect(await field(suite.page, 'w0', 'weight').inputValue()).toBe('80');
  });

  test('data-units and the locale choose the starting unit system', async () => {
    await suite.open(
      hostPage({
        api: suite.api.url,
        lang: 'en-US',
        widgets: [
          { calcId: 'bmi', apiKey: suite.apiKey },
          { calcId: 'bmi', apiKey: suite.apiKey, attributes: 'data-units="metric"' },
          { calcId: 'bmi', apiKey: suite.apiKey, attributes: 'data-locale="fr-FR"' },
        ],
      }),
    );
    await waitForEvent(suite.page, 'calc:result', 'w2');
    expect(await suite.page.locator('#w0 #u-weight').textContent()).toBe('lb');
    expect(await suite.page.locator('#w1 #u-weight').textContent()).toBe('kg');
    expect(await suite.page.locator('#w2 #u-weight').textContent()).toBe('kg');
  });

  test('out of range: aria-invalid and a linked message; fixing the value clears both', async () => {
    await suite.open(
      hostPage({
        api: suite.api.url,
        widgets: [{ calcId: 'bmi', apiKey: suite.apiKey, attributes: 'data-units="metric"' }],
      }),
    );
    await waitForEvent(suite.page, 'calc:ready', 'w0');
    const height = field(suite.page, 'w0', 'height');
    await height.fill('300');
    await height.press('Tab');
    expect(await height.getAttribute('aria-invalid')).toBe('true');
    expect(await height.getAttribute('aria-describedby')).toBe('u-height e-height');
    expect(await suite.page.locator('#w0 #e-height').textContent()).toBe('Enter a number from 40 to 272 cm.');
    expect(await resultValue(suite.page, 'w0').textContent()).toBe('—');
    await screenshot(suite.page, 'bmi-invalid');
    await height.fill('180');
    expect(await height.getAttribute('aria-invalid')).toBeNull();
    expect(await suite.page.locator('#w0 #e-height').isHidden()).toBe(true);
    expect(await height.getAttribute('aria-describedby')).toBe('u-height');
    expect(await resultValue(suite.page, 'w0').textContent()).not.toBe('—');
  });

  test('select fields render as <select>; visibleIf shows the hip field for women only', async () => {
    await suite.open(
      hostPage({
        api: suite.api.url,
        widgets: [{ calcId: 'body-fat', apiKey: suite.apiKey, attributes: 'data-units="metric"' }],
      }),
    );
    await waitForEvent(suite.page, 'calc:ready', 'w0');
    expect(
      await suite.page.evaluate(
        () => document.querySelector('#w0')?.shadowRoot?.querySelector('[data-key=sex]')?.tagName,
      ),
    ).toBe('SELECT');
    expect(await field(suite.page, 'w0', 'hip').isVisible()).toBe(false);
    const male = await resultValue(suite.page, 'w0').textContent();
    await field(suite.page, 'w0', 'sex').selectOption('female');
    expect(await field(suite.page, 'w0', 'hip').isVisible()).toBe(true);
    expect(await resultValue(suite.page, 'w0').textContent()).not.toBe(male);
    expect((await events(suite.page, 'calc:result', 'w0')).at(-1)?.detail.values).toMatchObject({
      sex: 'female',
      hip: 95,
    });
  });

  test('amounts use data-currency', async () => {
    await suite.open(
      hostPage({
        api: suite.api.url,
        widgets: [{ calcId: 'tip', apiKey: suite.apiKey, attributes: 'data-currency="USD" data-locale="en-US"' }],
      }),
    );
    await waitForEvent(suite.page, 'calc:ready', 'w0');
    expect(await resultValue(suite.page, 'w0', 1).textContent()).toBe('$57.50');
  });
});

describe('keyboard only', () => {
  test('Tab into the widget, type, switch units with arrows, Tab out: no trap, visible focus', async () => {
    await suite.open(
      hostPage({
        api: suite.api.url,
        before: '<button id="before">before</button>',
        after: '<a id="after" href="#after">after</a>',
        widgets: [{ calcId: 'bmi', apiKey: suite.apiKey, attributes: 'data-units="metric"' }],
      }),
    );
    await waitForEvent(suite.page, 'calc:ready', 'w0');
    await suite.page.locator('#before').focus();
    await suite.page.keyboard.press('Tab');
    expect(await focused(suite.page)).toBe('div#w0 > input[metric]');
    await suite.page.keyboard.press('Tab');
    expect(await focused(suite.page)).toBe('div#w0 > input#f-weight[weight]');
    const outline = await suite.page.evaluate(() => {
      const active = document.querySelector('#w0')?.shadowRoot?.activeElement;
      return active ? `${getComputedStyle(active).outlineStyle} ${getComputedStyle(active).outlineWidth}` : '';
    });
    expect(outline).toBe('solid 3px');
    await suite.page.keyboard.press('ControlOrMeta+a');
    await suite.page.keyboard.type('80');
    await suite.page.keyboard.press('Tab');
    expect(await focused(suite.page)).toBe('div#w0 > input#f-height[height]');
    await suite.page.keyboard.press('ControlOrMeta+a');
    await suite.page.keyboard.type('180');
    expect(await resultValue(suite.page, 'w0').textContent()).toBe('24.7');
    await suite.page.keyboard.press('Shift+Tab');
    await suite.page.keyboard.press('Shift+Tab');
    expect(await focused(suite.page)).toBe('div#w0 > input[metric]');
    await suite.page.keyboard.press('ArrowRight');
    expect(await field(suite.page, 'w0', 'weight').inputValue()).toBe('176.4');
    // Enter in a field does not submit or reload anything.
    await suite.page.keyboard.press('Tab');
    await suite.page.keyboard.press('Enter');
    expect(await field(suite.page, 'w0', 'weight').inputValue()).toBe('176.4');
    await suite.page.keyboard.press('Tab');
    await suite.page.keyboard.press('Tab');
    expect(await focused(suite.page)).toBe('a#after');
  });
});

describe('single-page apps', () => {
  test('destroy, mount again and mount a new element with options; no duplicate listeners', async () => {
    await suite.open(hostPage({ api: suite.api.url, widgets: [{ calcId: 'bmi', apiKey: suite.apiKey }] }));
    await waitForEvent(suite.page, 'calc:ready', 'w0');
    await suite.page.evaluate(() => {
      const element = document.querySelector('#w0');
      if (element) window.CalcWidget?.destroy(element);
    });
    expect(await suite.page.evaluate(() => document.querySelector('#w0')?.shadowRoot?.childElementCount)).toBe(0);
    await suite.page.evaluate(() => {
      const element = document.querySelector('#w0');
      if (element) window.CalcWidget?.mount(element);
    });
    await suite.page.waitForFunction(
      () => (window.calcEvents ?? []).filter((event) => event.type === 'calc:ready').length === 2,
    );
    const before = (await events(suite.page, 'calc:result', 'w0')).length;
    await field(suite.page, 'w0', 'weight').fill('81');
    expect((await events(suite.page, 'calc:result', 'w0')).length).toBe(before + 1);

    await suite.page.evaluate((key) => {
      const element = document.createElement('div');
      element.id = 'spa';
      document.body.append(element);
      window.CalcWidget?.mount(element, { calcId: 'vat', apiKey: key, currency: 'EUR', locale: 'en-IE' });
      window.CalcWidget?.mount(element, { calcId: 'vat', apiKey: key });
    }, suite.apiKey);
    await waitForEvent(suite.page, 'calc:ready', 'spa');
    expect(await resultValue(suite.page, 'spa', 2).textContent()).toBe('€120.00');
    expect(
      await suite.page.evaluate(() => document.querySelector('#spa')?.shadowRoot?.querySelectorAll('.root').length),
    ).toBe(1);
    expect(loads).toHaveLength(3);
  });
});
