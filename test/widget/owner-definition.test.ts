/**
 * A calculator the script does not bundle (an owner's), in real Chromium under the strict
 * host policy: the widget shows a loading note until the load answer arrives, then renders
 * the answer's definition (number, select and toggle inputs, visibleIf, bands, currency and
 * percent formats, the primary output, "—" for an output without a value), with the owner's
 * texts in the page's language and always as text; a definition it cannot show, or a refused
 * load, gives "calculator unavailable".
 *
 * The load answer comes from a real HTTP server on 127.0.0.1 that answers POST
 * /v1/widget/load as the API does, and passes the script and its language packs through from
 * the real API: so a test can hold an answer back, or send a definition the API would refuse.
 * owner-calculator.test.ts embeds a calculator created and published through the real API.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import type { Definition, Input } from '../../src/definition/types.ts';
import { validateDefinition } from '../../src/definition/validate.ts';
import { roofQuote as plainRoofQuote } from '../fixtures/roof-quote.ts';
import { startTarget, type TargetServer } from '../helpers/webhook-target.ts';
import { seriousAxeFindings } from './support/axe.ts';
import { hostPage } from './support/servers.ts';
import { band, events, field, focused, resultValue, unavailableNote, waitForEvent } from './support/widget-page.ts';
import { recordCspViolations, strictPolicy, useWidgetPage } from './support/widget-suite.ts';

setDefaultTimeout(60_000);

/** Markup in owner text: it must show as these characters, never become an element. */
const MARKUP = '<img src=x onerror="window.calcInjected=1">';

/**
 * The roof quote of the definition tests (a number, a select, a toggle, a number shown
 * only with the toggle, a table, bands, a primary output), with texts per language and
 * markup in them, a percentage, and an output that has no value at the default area.
 */
const roofQuote: Definition = (() => {
  const base = plainRoofQuote();
  const inputs = base.inputs.map((input): Input => {
    if (input.key === 'area')
      return { ...input, label: { en: 'Roof area', de: 'Dachfläche' }, help: 'Measured <b>flat</b>.' };
    if (input.kind === 'select')
      return {
        ...input,
        options: input.options.map((o) => (o.value === 'tiles' ? { ...o, label: '<b>Tiles</b>' } : o)),
      };
    if (input.kind === 'toggle') return { ...input, label: { en: 'Remove the old roof', de: 'Altes Dach entfernen' } };
    return input;
  });
  return {
    ...base,
    title: { en: `Roof quote ${MARKUP}`, de: `Dachangebot ${MARKUP}` },
    inputs,
    outputs: [
      ...base.outputs,
      { key: 'saving', label: 'Discount', formula: 'discount * 100', format: { style: 'percent', decimals: 1 } },
      // A division by zero at the default area: shown as "—".
      {
        key: 'payback',
        label: 'Payback',
        formula: 'base / (area - 120)',
        format: { style: 'number', decimals: 1, unit: 'years' },
      },
    ],
  };
})();

/** One the server would refuse (a formula that does not parse): should one ever arrive, it is not shown. */
const broken = { ...roofQuote, id: 'broken-quote', outputs: [{ key: 'total', label: 'Total', formula: 'area *' }] };

const suite = useWidgetPage({ account: true });
let api: TargetServer;
/** Pre-fill values the stand-in's next answers carry. */
let answerValues: Record<string, unknown> = {};
/** Holds the stand-in's load answers until released. */
let gate: Promise<void> = Promise.resolve();

const CORS = { 'access-control-allow-origin': '*' };

/** The load answer as the API gives it: the calculator with its definition, and the pre-fill values. */
async function answerLoad(request: Request): Promise<Response> {
  const { calcId } = (await request.json()) as { calcId: string };
  await gate;
  const definition = [roofQuote, broken].find((candidate) => candidate.id === calcId);
  if (!definition) {
    return Response.json(
      { error: { code: 'calculator_not_found', message: `There is no calculator "${calcId}".` } },
      { status: 404, headers: CORS },
    );
  }
  const calculator = { id: calcId, title: definition.title, definition };
  return Response.json({ calcId, calculator, values: answerValues }, { headers: CORS });
}

beforeAll(() => {
  api = startTarget('127.0.0.1', async (request) => {
    const { pathname } = new URL(request.url);
    if (pathname === '/v1/widget/load' && request.method === 'POST') return answerLoad(request);
    // The script and its language packs, as the real API serves them.
    const real = await fetch(`${suite.api.url}${pathname}`);
    return new Response(await real.arrayBuffer(), {
      status: real.status,
      headers: { 'content-type': real.headers.get('content-type') ?? 'text/plain', ...CORS },
    });
  });
});

afterAll(() => api?.stop());

const apiOrigin = () => api.url('').replace(/\/$/, '');

/** A host page under the strict policy with one widget for `calcId` and these attributes. */
async function openWidget(calcId: string, attributes = 'data-locale="en-GB" data-currency="EUR"'): Promise<void> {
  await recordCspViolations(suite.context);
  await suite.open(
    hostPage({
      api: apiOrigin(),
      before: '<main><h1>Roofing</h1>',
      after: '</main>',
      widgets: [{ calcId, apiKey: suite.apiKey, attributes }],
    }),
    { headers: { 'content-security-policy': strictPolicy(apiOrigin()) } },
  );
}

const shadowText = (selector: string) =>
  suite.page.evaluate(
    (selector) => document.querySelector('#w0')?.shadowRoot?.querySelector(selector)?.textContent ?? null,
    selector,
  );

async function expectNoViolations(): Promise<void> {
  expect(await suite.page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
}

test('the owner definition used here is one the server accepts', () => {
  expect(validateDefinition(roofQuote)).toEqual([]);
});

describe("an owner's calculator", () => {
  test('waits for the load answer with an announced note, then renders the definition with its defaults', async () => {
    answerValues = {};
    let release = () => {};
    gate = new Promise((resolve) => {
      release = resolve;
    });
    await openWidget('roof-quote');
    const loading = suite.page.locator('#w0 [part~="loading"]');
    await loading.waitFor();
    expect(await loading.textContent()).toBe('Loading the calculator…');
    expect(await loading.getAttribute('role')).toBe('status');
    expect(await suite.page.locator('#w0 input').count()).toBe(0);
    expect(await events(suite.page, 'calc:result', 'w0')).toEqual([]);
    release();

    const ready = await waitForEvent(suite.page, 'calc:ready', 'w0');
    expect(ready.detail).toEqual({
      calcId: 'roof-quote',
      sources: { area: 'default', material: 'default', removal: 'default', layers: 'default' },
      values: { area: 120, material: 'tiles', removal: false },
    });
    expect(await loading.count()).toBe(0);
    expect(await field(suite.page, 'w0', 'area').inputValue()).toBe('120');
    expect(await suite.page.locator('#w0 #u-area').textContent()).toBe('m²');
    expect(await field(suite.page, 'w0', 'layers').isVisible()).toBe(false);
    // The primary output leads; the others follow in their order.
    expect(await suite.page.locator('#w0 [part~="result-main"] dt').textContent()).toBe('Per m²');
    expect(await suite.page.locator('#w0 [part~="result"] dt').allTextContents()).toEqual([
      'Per m²',
      'Total',
      'Discount',
      'Payback',
    ]);
    expect(await resultValue(suite.page, 'w0', 0).textContent()).toBe('45.00');
    expect(await resultValue(suite.page, 'w0', 1).textContent()).toBe('€5,400');
    expect(await band(suite.page, 'w0', 1).textContent()).toBe('Medium job');
    expect(await band(suite.page, 'w0', 1).getAttribute('data-tone')).toBeNull();
    expect(await resultValue(suite.page, 'w0', 2).textContent()).toBe('0.0');
    expect(await suite.page.locator('#w0 [part="result-unit"]').nth(2).textContent()).toBe('%');
    // Not a finite number: "—", and null in calc:result, while the other outputs show.
    expect(await resultValue(suite.page, 'w0', 3).textContent()).toBe('—');
    const result = (await events(suite.page, 'calc:result', 'w0')).at(-1)?.detail;
    expect(result).toEqual({
      calcId: 'roof-quote',
      units: 'metric',
      values: { area: 120, material: 'tiles', removal: false },
      result: { total: 5400, perSquareMetre: 45, saving: 0, payback: null },
    });
    await expectNoViolations();
  });

  test('owner text is shown as text: markup in titles, labels, options and help never becomes HTML', async () => {
    answerValues = {};
    gate = Promise.resolve();
    await openWidget('roof-quote');
    await waitForEvent(suite.page, 'calc:ready', 'w0');
    expect(await shadowText('.title')).toBe(`Roof quote ${MARKUP}`);
    expect(await shadowText('option[value="tiles"]')).toBe('<b>Tiles</b>');
    expect(await shadowText('#h-area')).toBe('Measured <b>flat</b>.');
    const elements = await suite.page.evaluate(() =>
      [...(document.querySelector('#w0')?.shadowRoot?.querySelectorAll('img, b') ?? [])].map((e) => e.tagName),
    );
    expect(elements).toEqual([]);
    expect(await suite.page.evaluate(() => (window as unknown as { calcInjected?: number }).calcInjected)).toBe(
      undefined,
    );
    await expectNoViolations();
  });

  test('the toggle, the select and visibleIf drive the formulas; bands follow; invalid input empties every output', async () => {
    answerValues = {};
    gate = Promise.resolve();
    await openWidget('roof-quote');
    await waitForEvent(suite.page, 'calc:ready', 'w0');
    const toggle = field(suite.page, 'w0', 'removal');
    expect(await toggle.getAttribute('type')).toBe('checkbox');
    expect(await toggle.getAttribute('role')).toBe('switch');
    expect(await suite.page.locator('#w0 label[for="f-removal"]').textContent()).toBe('Remove the old roof');
    await toggle.check();
    expect(await field(suite.page, 'w0', 'layers').isVisible()).toBe(true);
    // 5,400 + 8 × 120 m² × 1 layer
    expect(await resultValue(suite.page, 'w0', 1).textContent()).toBe('€6,360');
    expect((await events(suite.page, 'calc:change', 'w0')).at(-1)?.detail).toMatchObject({
      key: 'removal',
      value: true,
    });
    await field(suite.page, 'w0', 'material').selectOption('metal');
    // 120 × 30 + 960
    expect(await resultValue(suite.page, 'w0', 1).textContent()).toBe('€4,560');
    expect(await band(suite.page, 'w0', 1).textContent()).toBe('Small job');
    expect(await band(suite.page, 'w0', 1).getAttribute('data-tone')).toBe('good');
    await field(suite.page, 'w0', 'area').fill('300');
    // 9,000 less 5 % from the table, plus 8 × 300 × 1
    expect(await resultValue(suite.page, 'w0', 1).textContent()).toBe('€10,950');
    expect(await resultValue(suite.page, 'w0', 2).textContent()).toBe('5.0');
    expect(await resultValue(suite.page, 'w0', 3).textContent()).toBe('50.0');
    expect(await suite.page.locator('#w0 [part="result-unit"]').nth(3).textContent()).toBe('years');
    await toggle.uncheck();
    expect(await field(suite.page, 'w0', 'layers').isVisible()).toBe(false);
    expect(await resultValue(suite.page, 'w0', 1).textContent()).toBe('€8,550');

    await field(suite.page, 'w0', 'area').fill('5000');
    expect(await suite.page.locator('#w0 [part="result-value"]').allTextContents()).toEqual(['—', '—', '—', '—']);
    expect(await band(suite.page, 'w0', 1).textContent()).toBe('');
    expect((await events(suite.page, 'calc:result', 'w0')).at(-1)?.detail).toMatchObject({
      calcId: 'roof-quote',
      values: { area: 5000, material: 'metal', removal: false },
      result: null,
    });
    await expectNoViolations();
  });

  test("layered pre-fill through the owner's input keys: the page's values, then the webhook's, by the input rules", async () => {
    // A string for a number, an unknown key and a number for a toggle are ignored, as the server's merge does.
    answerValues = { material: 'metal', removal: true, layers: 2, area: '300', colour: 'red' };
    gate = Promise.resolve();
    await openWidget('roof-quote', `data-locale="en-GB" data-values='{"area": 300, "removal": 1}'`);
    const ready = await waitForEvent(suite.page, 'calc:ready', 'w0');
    expect(ready.detail.sources).toEqual({ area: 'embed', material: 'webhook', removal: 'webhook', layers: 'webhook' });
    expect(ready.detail.values).toEqual({ area: 300, material: 'metal', removal: true, layers: 2 });
    expect(await field(suite.page, 'w0', 'removal').isChecked()).toBe(true);
    expect(await field(suite.page, 'w0', 'layers').inputValue()).toBe('2');
    // 9,000 less 5 %, plus 8 × 300 × 2; no currency set: a plain amount.
    expect(await resultValue(suite.page, 'w0', 1).textContent()).toBe('13,350');
  });

  test("the owner's texts in the page's language; the widget's own in its pack; numbers in the locale", async () => {
    answerValues = {};
    gate = Promise.resolve();
    await openWidget('roof-quote', 'data-locale="de-DE" data-currency="EUR"');
    await waitForEvent(suite.page, 'calc:ready', 'w0');
    expect(await suite.page.locator('#w0 .root').getAttribute('lang')).toBe('de');
    expect(await shadowText('.title')).toBe(`Dachangebot ${MARKUP}`);
    expect(await suite.page.locator('#w0 label[for="f-removal"]').textContent()).toBe('Altes Dach entfernen');
    // A text given in one language only shows as given.
    expect(await suite.page.locator('#w0 label[for="f-material"]').textContent()).toBe('Material');
    expect(await resultValue(suite.page, 'w0', 0).textContent()).toBe('45,00');
    expect((await resultValue(suite.page, 'w0', 1).textContent())?.replace(/\u00a0/g, ' ')).toBe('5.400 €');
    await field(suite.page, 'w0', 'area').fill('5000');
    await field(suite.page, 'w0', 'area').press('Tab');
    expect(await suite.page.locator('#w0 #e-area').textContent()).toBe('Geben Sie eine Zahl von 10 bis 1.000 m² ein.');
    await expectNoViolations();
  });

  test('keyboard only: Tab reaches the switch and Space flips it; axe finds nothing serious', async () => {
    answerValues = {};
    gate = Promise.resolve();
    await openWidget('roof-quote');
    await waitForEvent(suite.page, 'calc:ready', 'w0');
    await field(suite.page, 'w0', 'material').focus();
    await suite.page.keyboard.press('Tab');
    expect(await focused(suite.page)).toBe('div#w0 > input#f-removal[removal]');
    await suite.page.keyboard.press('Space');
    expect(await field(suite.page, 'w0', 'removal').isChecked()).toBe(true);
    expect(await field(suite.page, 'w0', 'layers').isVisible()).toBe(true);
    await suite.page.keyboard.press('Tab');
    expect(await focused(suite.page)).toBe('div#w0 > input#f-layers[layers]');
    expect(await seriousAxeFindings(suite.page)).toEqual([]);
  });
});

describe('failure is quiet', () => {
  test('a definition the script cannot show: "calculator unavailable", bad_response, nothing thrown', async () => {
    answerValues = {};
    gate = Promise.resolve();
    await openWidget('broken-quote');
    const error = await waitForEvent(suite.page, 'calc:error', 'w0');
    expect(error.detail).toMatchObject({ calcId: 'broken-quote', code: 'bad_response' });
    expect(await unavailableNote(suite.page, 'w0').textContent()).toBe('Calculator unavailable');
    expect(await suite.page.locator('#w0 input').count()).toBe(0);
    expect(suite.record.warnings.some((warning) => warning.includes('bad_response'))).toBe(true);
  });

  test('an id the server does not know: calculator_not_found from the answer', async () => {
    answerValues = {};
    gate = Promise.resolve();
    await openWidget('no-such-quote');
    const error = await waitForEvent(suite.page, 'calc:error', 'w0');
    expect(error.detail).toMatchObject({ calcId: 'no-such-quote', code: 'calculator_not_found' });
    expect(await unavailableNote(suite.page, 'w0').textContent()).toBe('Calculator unavailable');
    expect(await events(suite.page, 'calc:ready', 'w0')).toEqual([]);
  });
});
