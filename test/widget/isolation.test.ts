/**
 * The widget as a guest on someone else's page, in real Chromium: a strict CSP without
 * nonce, hostile host CSS, styling hooks that do reach in, themes, and axe-core.
 */
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { ROOT } from '../helpers/process.ts';
import { screenshot } from './support/browser.ts';
import { hostPage } from './support/servers.ts';
import { events, field, resultValue, waitForEvent } from './support/widget-page.ts';
import { recordCspViolations, strictPolicy, useWidgetPage } from './support/widget-suite.ts';

const suite = useWidgetPage({ prefill: { weightKg: 90 }, context: { colorScheme: 'light' } });

describe('strict Content-Security-Policy', () => {
  test('works with no nonce when only the API origin is allowed: no violation, no CSP error', async () => {
    await recordCspViolations(suite.context);
    const policy = strictPolicy(suite.api.url);
    await suite.open(
      hostPage({
        api: suite.api.url,
        widgets: [
          { calcId: 'bmi', apiKey: suite.apiKey, attributes: 'data-units="metric"' },
          { calcId: 'body-fat', apiKey: suite.apiKey, attributes: 'data-theme="dark"' },
        ],
      }),
      {
        headers: {
          'content-security-policy': policy,
        },
      },
    );
    await waitForEvent(suite.page, 'calc:ready', 'w0');
    await waitForEvent(suite.page, 'calc:ready', 'w1');
    // The load answer arrived (connect-src) and was applied.
    expect(await field(suite.page, 'w0', 'weight').inputValue()).toBe('90');
    await field(suite.page, 'w0', 'height').fill('180');
    expect(await resultValue(suite.page, 'w0').textContent()).toBe('27.8');
    // The adopted stylesheet applies (style-src does not block constructable sheets).
    const radius = await suite.page.evaluate(() => {
      const root = document.querySelector('#w0')?.shadowRoot?.querySelector('.root');
      return root ? getComputedStyle(root).borderTopLeftRadius : '';
    });
    expect(radius).toBe('8px');
    await suite.page.waitForTimeout(100);
    expect(await suite.page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual(
      [],
    );
    expect(suite.record.consoleErrors.filter((text) => /Content Security Policy|Refused to/i.test(text))).toEqual([]);
    await screenshot(suite.page, 'strict-csp');
  });

  test("works under Trusted Types too (no HTML sinks): require-trusted-types-for 'script'", async () => {
    const policy = `default-src 'none'; script-src ${suite.api.url}; connect-src ${suite.api.url}; require-trusted-types-for 'script'; trusted-types 'none'`;
    await suite.open(hostPage({ api: suite.api.url, widgets: [{ calcId: 'tdee', apiKey: suite.apiKey }] }), {
      headers: {
        'content-security-policy': policy,
      },
    });
    await waitForEvent(suite.page, 'calc:ready', 'w0');
    await field(suite.page, 'w0', 'age').fill('41');
    expect(await resultValue(suite.page, 'w0').textContent()).toMatch(/^\d/);
    expect(
      suite.record.consoleErrors.filter((text) => /Content Security Policy|Trusted Type|Refused to/i.test(text)),
    ).toEqual([]);
  });
});

/** Computed styles and sizes of everything inside a widget's shadow root. */
function shadowStyles(host: string): Promise<string[]> {
  return suite.page.evaluate((host) => {
    const root = document.querySelector(`#${host}`)?.shadowRoot;
    if (!root) return [];
    const properties = [
      'display',
      'color',
      'font-size',
      'font-family',
      'font-weight',
      'line-height',
      'background-color',
      'border-top-width',
      'border-top-style',
      'padding-top',
      'margin-top',
      'text-transform',
    ];
    return [...root.querySelectorAll('*')].map((element) => {
      const style = getComputedStyle(element);
      const box = element.getBoundingClientRect();
      return `${element.tagName} ${properties.map((name) => style.getPropertyValue(name)).join('|')} ${Math.round(box.width)}x${Math.round(box.height)}`;
    });
  }, host);
}

/** Computed styles of the host page's own elements. */
function hostStyles(): Promise<string[]> {
  return suite.page.evaluate(() => {
    const properties = [
      'display',
      'color',
      'font-size',
      'font-family',
      'line-height',
      'background-color',
      'border-top-width',
      'padding-top',
      'margin-top',
      'box-sizing',
      'outline-style',
      'accent-color',
      'color-scheme',
    ];
    return [...document.querySelectorAll('#probe, #probe *')].map(
      (element) =>
        `${element.tagName} ${properties.map((name) => getComputedStyle(element).getPropertyValue(name)).join('|')}`,
    );
  });
}

const PROBE =
  '<div id="probe"><form><fieldset><legend>Host form</legend><label for="q">Query</label> <input id="q" value="x"> <select><option>a</option></select></fieldset><p class="root title field result note">Host text <span class="unit band">unit</span></p><dl class="results"><dt>a</dt><dd>b</dd></dl></form></div>';

describe('style isolation', () => {
  test('hostile host CSS does not change the widget', async () => {
    const widgets = [{ calcId: 'bmi', apiKey: suite.apiKey, attributes: 'data-units="metric"' }];
    await suite.open(hostPage({ api: suite.api.url, widgets }));
    await waitForEvent(suite.page, 'calc:ready', 'w0');
    const clean = await shadowStyles('w0');
    expect(clean.length).toBeGreaterThan(20);

    const hostile = `<style>
      * { color: red !important; font-size: 40px !important; font-family: serif !important; line-height: 3 !important; font-weight: 100 !important; text-transform: uppercase !important; }
      input, select { display: none !important; }
      form, label, p, span, div, dl, dt, dd, fieldset, legend { background: yellow !important; border: 5px dashed red !important; padding: 30px !important; margin: 10px !important; }
      .root, .field, .unit, .result, .title { display: none !important; }
    </style>`;
    await suite.open(hostPage({ api: suite.api.url, widgets, head: hostile }));
    await waitForEvent(suite.page, 'calc:ready', 'w0');
    expect(await shadowStyles('w0')).toEqual(clean);
    await screenshot(suite.page, 'hostile-host-css');
  });

  test('the widget does not change the host page', async () => {
    await suite.open(`<!doctype html><html lang="en"><head><title>host</title></head><body>${PROBE}</body></html>`);
    const without = await hostStyles();
    expect(without.length).toBeGreaterThan(8);
    await suite.open(
      hostPage({
        api: suite.api.url,
        before: PROBE,
        widgets: [
          { calcId: 'bmi', apiKey: suite.apiKey },
          { calcId: 'loan', apiKey: suite.apiKey, attributes: 'data-theme="dark"' },
        ],
      }),
    );
    await waitForEvent(suite.page, 'calc:ready', 'w1');
    expect(await hostStyles()).toEqual(without);
  });

  test('hosts restyle through --calc-* custom properties and ::part()', async () => {
    const head = `<style>
      [data-calc-widget] { --calc-color-primary: rgb(200, 0, 100); --calc-radius: 0px; --calc-font-family: monospace; }
      [data-calc-widget]::part(title) { text-transform: uppercase; }
      [data-calc-widget]::part(input) { border-color: rgb(0, 128, 0); }
    </style>`;
    await suite.open(hostPage({ api: suite.api.url, head, widgets: [{ calcId: 'bmi', apiKey: suite.apiKey }] }));
    await waitForEvent(suite.page, 'calc:ready', 'w0');
    const styles = await suite.page.evaluate(() => {
      const root = document.querySelector('#w0')?.shadowRoot;
      const style = (selector: string) => {
        const element = root?.querySelector(selector);
        return element ? getComputedStyle(element) : undefined;
      };
      return {
        radius: style('.root')?.borderTopLeftRadius,
        font: style('.root')?.fontFamily,
        radio: style('input[type=radio]')?.accentColor,
        title: style('.title')?.textTransform,
        input: style('input[data-key]')?.borderTopColor,
      };
    });
    expect(styles).toEqual({
      radius: '0px',
      font: 'monospace',
      radio: 'rgb(200, 0, 100)',
      title: 'uppercase',
      input: 'rgb(0, 128, 0)',
    });
  });

  test('themes: light by default, dark on request, auto follows the system', async () => {
    await suite.context.close();
    await suite.reopen({ colorScheme: 'dark' });
    await suite.open(
      hostPage({
        api: suite.api.url,
        widgets: [
          { calcId: 'bmi', apiKey: suite.apiKey },
          { calcId: 'bmi', apiKey: suite.apiKey, attributes: 'data-theme="dark"' },
          { calcId: 'bmi', apiKey: suite.apiKey, attributes: 'data-theme="auto"' },
        ],
      }),
    );
    await waitForEvent(suite.page, 'calc:ready', 'w2');
    const backgrounds = await suite.page.evaluate(() =>
      ['w0', 'w1', 'w2'].map((id) => {
        const root = document.querySelector(`#${id}`)?.shadowRoot?.querySelector('.root');
        return root ? getComputedStyle(root).backgroundColor : '';
      }),
    );
    expect(backgrounds).toEqual(['rgb(255, 255, 255)', 'rgb(27, 31, 36)', 'rgb(27, 31, 36)']);
    await screenshot(suite.page, 'themes-dark-system');
  });
});

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown; failureSummary?: string }[];
}

describe('accessibility', () => {
  test('axe-core finds no serious or critical violation in the widgets (light, dark, invalid input)', async () => {
    const html = hostPage({
      api: suite.api.url,
      before: '<main><h1>Calculators</h1>',
      after: '</main>',
      widgets: [
        { calcId: 'bmi', apiKey: suite.apiKey },
        { calcId: 'body-fat', apiKey: suite.apiKey, attributes: 'data-theme="dark"' },
        { calcId: 'loan', apiKey: suite.apiKey, attributes: 'data-currency="EUR"' },
        { calcId: 'tdee', apiKey: suite.apiKey, attributes: 'data-theme="dark" data-units="imperial"' },
        { calcId: 'fuel-cost', apiKey: suite.apiKey },
      ],
    });
    await suite.open(html);
    for (const id of ['w0', 'w1', 'w2', 'w3', 'w4']) await waitForEvent(suite.page, 'calc:ready', id);
    await field(suite.page, 'w1', 'sex').selectOption('female');
    await field(suite.page, 'w0', 'height').fill('999');
    await field(suite.page, 'w0', 'height').press('Tab');
    expect(await field(suite.page, 'w0', 'height').getAttribute('aria-invalid')).toBe('true');

    const axeSource = await Bun.file(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js')).text();
    await suite.page.addScriptTag({ content: axeSource });
    const violations = await suite.page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(context: Document): Promise<{ violations: AxeViolation[] }> } })
        .axe;
      const result = await axe.run(document);
      return result.violations.map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        help: violation.help,
        nodes: violation.nodes.map((node) => ({ target: node.target, failureSummary: node.failureSummary })),
      }));
    });
    const blocking = violations.filter(
      (violation) => violation.impact === 'serious' || violation.impact === 'critical',
    );
    expect(blocking).toEqual([]);
    await screenshot(suite.page, 'axe-page');
  });

  test('the result is a status live region; units and help are linked to their inputs', async () => {
    await suite.open(
      hostPage({
        api: suite.api.url,
        widgets: [{ calcId: 'fuel-cost', apiKey: suite.apiKey, attributes: 'data-units="metric"' }],
      }),
    );
    await waitForEvent(suite.page, 'calc:ready', 'w0');
    const a11y = await suite.page.evaluate(() => {
      const root = document.querySelector('#w0')?.shadowRoot;
      const input = root?.querySelector('[data-key=distance]');
      const described = (input?.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .map((id) => root?.getElementById(id)?.textContent);
      return {
        label: input?.id ? root?.querySelector(`label[for="${input.id}"]`)?.textContent : undefined,
        described,
        status: root?.querySelectorAll('[role=status]').length,
        results: root?.querySelector('[role=status]')?.textContent?.includes('Trip cost'),
        legend: root?.querySelector('fieldset legend')?.textContent,
        radios: root?.querySelectorAll('fieldset input[type=radio][name=units]').length,
      };
    });
    expect(a11y).toEqual({
      label: 'Distance',
      described: ['km', 'Trip distance in kilometres (metric) or miles (imperial).'],
      status: 1,
      results: true,
      legend: 'Units',
      radios: 2,
    });
    expect((await events(suite.page, 'calc:result', 'w0')).length).toBeGreaterThan(0);
  });
});
