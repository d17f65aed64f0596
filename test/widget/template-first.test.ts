/**
 * A catalogue calculator in real Chromium renders from whichever arrives first, its
 * template file or the load answer: with the load held (a webhook that has not answered),
 * it shows from its file with its defaults and takes the pre-fill when the answer comes,
 * never over a typed field; with its file failing or slow, it shows from the load answer,
 * in the page's language, and a file arriving later changes nothing.
 */
import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import type { Request, Route } from 'playwright-core';
import { hostPage } from './support/servers.ts';
import { events, field, resultValue, unavailableNote, waitForEvent } from './support/widget-page.ts';
import { useWidgetPage } from './support/widget-suite.ts';

setDefaultTimeout(60_000);

const TEMPLATES = '**/widget/calculators/**';
const GERMAN_BMI = 'Body-Mass-Index (BMI)';

let templateRequests: Request[] = [];
const suite = useWidgetPage({
  onPage(page) {
    templateRequests = [];
    page.on('request', (request) => {
      if (request.url().includes('/widget/calculators/')) templateRequests.push(request);
    });
  },
});

function held(): { gate: Promise<void>; release: () => void } {
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { gate, release };
}

/** bmi twice on one page: in English (w0) and in German (w1), both with `apiKey`. */
async function openTwoBmi(apiKey: string): Promise<void> {
  await suite.open(
    hostPage({
      api: suite.api.url,
      widgets: [
        { calcId: 'bmi', apiKey, attributes: 'data-units="metric"' },
        { calcId: 'bmi', apiKey, attributes: 'data-units="metric" data-locale="de-DE"' },
      ],
    }),
  );
}

/** Lets the page run its pending tasks (a file's answer, its handlers) to the next frame. */
const settle = () =>
  suite.page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve))));

describe('the template file first', () => {
  test('with the load held, both widgets show from one file request; the pre-fill comes with the answer', async () => {
    const load = held();
    const apiKey = await suite.accountWithPrefill({ weightKg: 90, heightCm: 190 }, load.gate);
    await openTwoBmi(apiKey);
    await waitForEvent(suite.page, 'calc:result', 'w0');
    await waitForEvent(suite.page, 'calc:result', 'w1');
    // The load has not answered: what shows came from the file.
    expect(await events(suite.page, 'calc:ready')).toEqual([]);
    expect(await field(suite.page, 'w0', 'weight').inputValue()).toBe('70');
    expect(await field(suite.page, 'w0', 'height').inputValue()).toBe('175');
    expect(await resultValue(suite.page, 'w0').textContent()).toBe('22.9');
    expect(await suite.page.locator('#w1 .title').textContent()).toBe(GERMAN_BMI);
    expect(await resultValue(suite.page, 'w1').textContent()).toBe('22,9');
    expect(templateRequests.map((request) => new URL(request.url()).pathname)).toEqual([
      expect.stringMatching(/^\/widget\/calculators\/bmi\.[0-9a-f]{12}\.json$/),
    ]);

    // The visitor types before the answer; the answer fills only the other field.
    await field(suite.page, 'w0', 'weight').fill('60');
    load.release();
    await waitForEvent(suite.page, 'calc:ready', 'w0');
    await waitForEvent(suite.page, 'calc:ready', 'w1');
    expect(await field(suite.page, 'w0', 'weight').inputValue()).toBe('60');
    expect(await field(suite.page, 'w0', 'height').inputValue()).toBe('190');
    expect(await resultValue(suite.page, 'w0').textContent()).toBe('16.6');
    expect((await events(suite.page, 'calc:ready', 'w0'))[0]?.detail.sources).toEqual({
      weight: 'typed',
      height: 'webhook',
    });
    expect(await field(suite.page, 'w1', 'weight').inputValue()).toBe('90');
    expect(await resultValue(suite.page, 'w1').textContent()).toBe('24,9');
  });
});

describe('the way to the first render', () => {
  /** The connection each of the script, the template file and the load came over, with or without `crossorigin` on the script tag. */
  async function connections(crossorigin: boolean): Promise<Record<'script' | 'file' | 'load', number>> {
    const { apiKey } = await suite.api.accountFor(suite.site.origin);
    const cdp = await suite.context.newCDPSession(suite.page);
    await cdp.send('Network.enable');
    const seen: Record<string, number> = {};
    cdp.on('Network.responseReceived', ({ response }) => {
      const { pathname } = new URL(response.url);
      const name = pathname === '/widget.js' ? 'script' : pathname.startsWith('/widget/calculators/') ? 'file' : 'load';
      if (response.url.startsWith(suite.api.url)) seen[name] = response.connectionId;
    });
    await suite.open(
      `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><title>host</title></head><body>
<script src="${suite.api.url}/widget.js" async${crossorigin ? ' crossorigin' : ''}></script>
<div id="w0" data-calc-widget data-calc-id="bmi" data-api-key="${apiKey}"></div></body></html>`,
    );
    await waitForEvent(suite.page, 'calc:ready', 'w0');
    await suite.page.waitForFunction(() => performance.getEntriesByType('resource').length >= 3);
    return seen as Record<'script' | 'file' | 'load', number>;
  }

  test("with `crossorigin` on the script tag, the widget's requests may ride the connection the script came on", async () => {
    // Browsers keep credentialed requests (a plain script tag) and anonymous ones (the
    // widget's fetches) on separate connections; `crossorigin` makes the script anonymous too.
    const plain = await connections(false);
    expect([plain.file, plain.load]).not.toContain(plain.script);
    const first = suite.context;
    await suite.reopen();
    await first.close();
    const anonymous = await connections(true);
    expect([anonymous.file, anonymous.load]).toContain(anonymous.script);
    expect(await resultValue(suite.page, 'w0').textContent()).toBe('22.9');
  });
});

describe('the load answer first', () => {
  // What a proxy in front of calc might answer instead of the file, readable by the page.
  const readable = () => ({ 'access-control-allow-origin': '*' });
  test.each([
    ['fails', (route: Route) => route.abort('connectionrefused')],
    ['is not JSON', (route: Route) => route.fulfill({ status: 200, body: 'maintenance', headers: readable() })],
    [
      'is not a calculator',
      (route: Route) => route.fulfill({ status: 200, json: { inputs: 'none' }, headers: readable() }),
    ],
  ])('when the file %s: both widgets show from the answer, German through its pack, pre-filled', async (_, answer) => {
    await suite.page.route(TEMPLATES, answer);
    await openTwoBmi(await suite.accountWithPrefill({ weightKg: 90 }));
    await waitForEvent(suite.page, 'calc:ready', 'w0');
    await waitForEvent(suite.page, 'calc:ready', 'w1');
    expect(await field(suite.page, 'w0', 'weight').inputValue()).toBe('90');
    expect(await resultValue(suite.page, 'w0').textContent()).toBe('29.4');
    expect(await suite.page.locator('#w0 .title').textContent()).toBe('Body Mass Index (BMI)');
    // The catalogue's texts are translated by the pack, whichever definition is shown.
    expect(await suite.page.locator('#w1 .title').textContent()).toBe(GERMAN_BMI);
    expect(await suite.page.locator('#w1 label[for="f-weight"]').textContent()).toBe('Gewicht');
    expect(await resultValue(suite.page, 'w1').textContent()).toBe('29,4');
    expect(await unavailableNote(suite.page, 'w0').count()).toBe(0);
    expect(templateRequests.length).toBeGreaterThan(0);
    expect(suite.record.warnings.filter((text) => text.startsWith('[calc]'))).toEqual([]);
  });

  test('when the file is slow: the answer shows, and the file arriving later changes nothing', async () => {
    const file = held();
    await suite.page.route(TEMPLATES, async (route) => {
      await file.gate;
      await route.continue();
    });
    await openTwoBmi(await suite.accountWithPrefill({ heightCm: 180 }));
    await waitForEvent(suite.page, 'calc:ready', 'w0');
    expect(await field(suite.page, 'w0', 'height').inputValue()).toBe('180');
    await field(suite.page, 'w0', 'weight').fill('81');
    const results = (await events(suite.page, 'calc:result', 'w0')).length;

    const finished = suite.page.waitForEvent('requestfinished', (request) =>
      request.url().includes('/widget/calculators/'),
    );
    file.release();
    expect((await (await finished).response())?.status()).toBe(200);
    await settle();
    expect(await field(suite.page, 'w0', 'weight').inputValue()).toBe('81');
    expect(await field(suite.page, 'w0', 'height').inputValue()).toBe('180');
    expect(await resultValue(suite.page, 'w0').textContent()).toBe('25.0');
    expect(await suite.page.locator('#w0 .root').count()).toBe(1);
    expect(await events(suite.page, 'calc:ready', 'w0')).toHaveLength(1);
    expect(await events(suite.page, 'calc:result', 'w0')).toHaveLength(results);
  });

  test('a load failing after the file showed the calculator, or before the file came: "calculator unavailable"', async () => {
    const { apiKey } = await suite.api.accountFor(suite.site.origin);
    // After: the load fails once the file has shown the form.
    const shown = held();
    await suite.page.route(`${suite.api.url}/v1/widget/load`, async (route) => {
      await shown.gate;
      await route.abort('connectionrefused');
    });
    await openTwoBmi(apiKey);
    await waitForEvent(suite.page, 'calc:result', 'w0');
    shown.release();
    await waitForEvent(suite.page, 'calc:error', 'w0');
    expect(await unavailableNote(suite.page, 'w0').count()).toBe(1);
    expect(await suite.page.locator('#w0 form').count()).toBe(0);
    expect((await events(suite.page, 'calc:error', 'w0'))[0]?.detail.code).toBe('network_error');

    // Before: the file comes after the failure, and is not shown.
    const first = suite.context;
    await suite.reopen();
    await first.close();
    const file = held();
    await suite.page.route(`${suite.api.url}/v1/widget/load`, (route) => route.abort('connectionrefused'));
    await suite.page.route(TEMPLATES, async (route) => {
      await file.gate;
      await route.continue();
    });
    await openTwoBmi(apiKey);
    await waitForEvent(suite.page, 'calc:error', 'w0');
    const finished = suite.page.waitForEvent('requestfinished', (request) =>
      request.url().includes('/widget/calculators/'),
    );
    file.release();
    await finished;
    await settle();
    expect(await unavailableNote(suite.page, 'w0').count()).toBe(1);
    expect(await suite.page.locator('#w0 form').count()).toBe(0);
    expect(await events(suite.page, 'calc:result', 'w0')).toEqual([]);
  });
});
