/**
 * The funnel a widget reports, in real Chromium with the real API: views only for
 * widgets half on screen for a second, starts only for the visitor's own changes,
 * completes once, at most two requests per element, nothing when turned off, nothing
 * stored in the browser. The page's clock is Playwright's (timers advance when the test
 * says), and every `sendBeacon` call is recorded as it is made, then let through to the
 * API, whose counts are checked too.
 */
import { beforeEach, expect, setDefaultTimeout, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { hostPage } from './support/servers.ts';
import { field, waitForEvent } from './support/widget-page.ts';
import { useWidgetPage } from './support/widget-suite.ts';

// Whole pages of widgets in a real browser: a loaded machine must not turn that into a failure.
setDefaultTimeout(60_000);

interface Beacon {
  calcId: string;
  events: string[];
}

declare global {
  interface Window {
    beacons?: Beacon[];
    halfVisible?: Record<string, boolean>;
  }
}

const suite = useWidgetPage({
  onPage: async (page) => {
    // Records each report when it is sent (synchronously, so "nothing sent" can be
    // checked at once), then sends it: the API still receives every one.
    await page.addInitScript(() => {
      window.beacons = [];
      const send = navigator.sendBeacon.bind(navigator);
      navigator.sendBeacon = (url, data) => {
        if (String(url).endsWith('/v1/widget/events')) window.beacons?.push(JSON.parse(String(data)));
        return send(url, data);
      };
    });
    // Time stands still in the page until the test moves it.
    await page.clock.install({ time: Date.parse('2026-03-14T09:00:00Z') });
    await page.clock.pauseAt(Date.parse('2026-03-14T09:00:01Z'));
  },
});

let account: { apiKey: string; token: string };
beforeEach(async () => {
  account = await suite.api.accountFor(suite.site.origin);
});

/** The reports sent so far (of one calculator), as which steps of which calculator. */
const beacons = (page: Page, calcId?: string): Promise<Beacon[]> =>
  page.evaluate(
    (id) =>
      (window.beacons ?? [])
        .filter((b) => !id || b.calcId === id)
        .map(({ calcId: calculator, events }) => ({ calcId: calculator, events })),
    calcId,
  );

/** The API's funnel rows for the test's account (counted in memory, so at once). */
async function funnelRows() {
  const res = await fetch(`${suite.api.url}/v1/usage`, { headers: { authorization: `Bearer ${account.token}` } });
  return ((await res.json()) as { funnel: { calcId: string; views: number; starts: number; completes: number }[] })
    .funnel;
}

/** Waits until the API has counted what the page sent (beacons travel on their own). */
async function serverSees(expected: { calcId: string; views: number; starts: number; completes: number }[]) {
  const shape = (rows: Awaited<ReturnType<typeof funnelRows>>) =>
    rows.map(({ calcId, views, starts, completes }) => ({ calcId, views, starts, completes }));
  const deadline = Date.now() + 10_000;
  let rows = shape(await funnelRows());
  while (JSON.stringify(rows) !== JSON.stringify(expected) && Date.now() < deadline) {
    await Bun.sleep(20);
    rows = shape(await funnelRows());
  }
  expect(rows).toEqual(expected);
}

/** Opens a page of widgets and waits until each has loaded (reports go only after that). */
async function open(widgets: { id: string; calcId: string; attributes?: string }[], html: { after?: string } = {}) {
  await suite.open(
    hostPage({ api: suite.api.url, widgets: widgets.map((w) => ({ ...w, apiKey: account.apiKey })), ...html }),
  );
  for (const w of widgets) await waitForEvent(suite.page, 'calc:ready', w.id);
  await watching(widgets.map((w) => w.id));
}

/**
 * Lets each widget start watching its element (from a task after its first render) and
 * waits until the browser has told it how much of it is in view: a test's observer of
 * the same element hears in the same task, after the widget's.
 */
async function watching(ids: string[]) {
  await suite.page.clock.runFor(1);
  for (const id of ids) {
    await watchHalf(suite.page, id);
    await suite.page.waitForFunction((target) => window.halfVisible?.[target] !== undefined, id);
  }
}

/** Watches `id` as the widget does (half of it in view), so a test can wait for the browser to have told it. */
async function watchHalf(page: Page, id: string) {
  await page.evaluate((target) => {
    window.halfVisible ??= {};
    const element = document.getElementById(target);
    if (!element) throw new Error(`no #${target}`);
    new IntersectionObserver(
      ([entry]) => {
        if (window.halfVisible) window.halfVisible[target] = (entry?.intersectionRatio ?? 0) >= 0.5;
      },
      { threshold: 0.5 },
    ).observe(element);
  }, id);
}

const halfVisible = (page: Page, id: string, visible: boolean) =>
  page.waitForFunction(([target, want]) => window.halfVisible?.[target as string] === want, [id, visible] as const);

const SPACER = '<div style="height: 3000px">Above the calculator</div>';

test('below the fold: no view; in view for a second, one; the second starts again when it leaves', async () => {
  const { page } = suite;
  // The second widget sits 3000 px further down.
  await open([{ id: 'top', calcId: 'bmi' }], {
    after: `${SPACER}<div id="low" data-calc-widget data-calc-id="tip" data-api-key="${account.apiKey}"></div>`,
  });
  await waitForEvent(page, 'calc:ready', 'low');
  await watching(['low']);
  await halfVisible(page, 'top', true);
  await halfVisible(page, 'low', false);
  // The first widget's second began within the last 2 ms of the page's clock.
  await page.clock.runFor(997);
  expect(await beacons(page)).toEqual([]);
  await page.clock.runFor(3);
  expect(await beacons(page)).toEqual([{ calcId: 'bmi', events: ['view'] }]);
  await page.clock.runFor(60_000);
  expect(await beacons(page, 'tip')).toEqual([]);

  // In view for 0.6 s, out, back for 0.6 s: not yet a view; 0.4 s more: one.
  await page.locator('#low').scrollIntoViewIfNeeded();
  await halfVisible(page, 'low', true);
  await page.clock.runFor(600);
  await page.evaluate(() => window.scrollTo(0, 0));
  await halfVisible(page, 'low', false);
  await page.clock.runFor(600);
  await page.locator('#low').scrollIntoViewIfNeeded();
  await halfVisible(page, 'low', true);
  await page.clock.runFor(600);
  expect(await beacons(page, 'tip')).toEqual([]);
  await page.clock.runFor(400);
  expect(await beacons(page, 'tip')).toEqual([{ calcId: 'tip', events: ['view'] }]);
  // Seen again later: still one view.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.locator('#low').scrollIntoViewIfNeeded();
  await page.clock.runFor(5_000);
  expect(await beacons(page)).toHaveLength(2);
  await serverSees([
    { calcId: 'bmi', views: 1, starts: 0, completes: 0 },
    { calcId: 'tip', views: 1, starts: 0, completes: 0 },
  ]);
});

test('pre-filled and untouched: a view, never a start; typing: start and complete once, however many changes follow', async () => {
  const { page } = suite;
  await open([
    { id: 'filled', calcId: 'bmi', attributes: `data-units="metric" data-values='{"weightKg": 80, "heightCm": 180}'` },
  ]);
  await page.clock.runFor(60_000);
  expect(await beacons(page)).toEqual([{ calcId: 'bmi', events: ['view'] }]);
  expect(await field(page, 'filled', 'weight').inputValue()).toBe('80');
  // Switching the unit system converts the values: the visitor changed none of them.
  await page.locator('#filled').getByRole('radio', { name: 'Imperial' }).check();
  await page.clock.runFor(60_000);
  expect(await beacons(page)).toHaveLength(1);
  await page.locator('#filled').getByRole('radio', { name: 'Metric' }).check();

  // The visitor empties a field (a change, no result yet): a start waits for its complete.
  const weight = field(page, 'filled', 'weight');
  await weight.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Backspace');
  await page.clock.runFor(60_000);
  expect(await beacons(page)).toHaveLength(1);
  // A number gives a result: start and complete go together, the element's second and last request.
  await page.keyboard.type('9');
  expect(await beacons(page)).toEqual([
    { calcId: 'bmi', events: ['view'] },
    { calcId: 'bmi', events: ['start', 'complete'] },
  ]);
  for (const value of ['92', '', '93.5', '60']) await weight.fill(value);
  await field(page, 'filled', 'height').fill('170');
  await page.clock.runFor(60_000);
  // Removed from the page: nothing is left to send.
  await page.evaluate(() => {
    const element = document.getElementById('filled');
    if (element) window.CalcWidget?.destroy(element);
  });
  expect(await beacons(page)).toHaveLength(2);
  await serverSees([{ calcId: 'bmi', views: 1, starts: 1, completes: 1 }]);
});

test('a pre-fill from the webhook is no start either; a visitor quicker than the view sends all three at once', async () => {
  const { page } = suite;
  const apiKey = await suite.accountWithPrefill({ weightKg: 95, heightCm: 185 });
  await suite.open(
    hostPage({ api: suite.api.url, widgets: [{ id: 'w', calcId: 'bmi', apiKey, attributes: 'data-units="metric"' }] }),
  );
  await waitForEvent(page, 'calc:ready', 'w');
  expect(await field(page, 'w', 'weight').inputValue()).toBe('95');
  await page.clock.runFor(500);
  expect(await beacons(page)).toEqual([]);
  // Typed within the first second: the visitor saw it.
  await field(page, 'w', 'height').fill('180');
  expect(await beacons(page)).toEqual([{ calcId: 'bmi', events: ['view', 'start', 'complete'] }]);
  await page.clock.runFor(60_000);
  expect(await beacons(page)).toHaveLength(1);
});

test('a start without a result is sent when the visitor leaves the page', async () => {
  const { page } = suite;
  await open([{ id: 'w', calcId: 'bmi', attributes: 'data-units="metric"' }]);
  await page.clock.runFor(1_000);
  const weight = field(page, 'w', 'weight');
  await weight.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Backspace');
  expect(await beacons(page)).toEqual([{ calcId: 'bmi', events: ['view'] }]);
  // Leaving hides the page: the pending start goes out with it.
  await page.goto('about:blank');
  await serverSees([{ calcId: 'bmi', views: 1, starts: 1, completes: 0 }]);
});

test('data-analytics="off" on an element, or on the script tag for the whole page, sends nothing', async () => {
  const { page } = suite;
  const requests: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/v1/widget/events')) requests.push(request.url());
  });
  await open([
    { id: 'off', calcId: 'bmi', attributes: 'data-analytics="off"' },
    { id: 'on', calcId: 'tip' },
  ]);
  // The same as an option of mount().
  await page.evaluate((apiKey) => {
    const element = document.createElement('div');
    element.id = 'mounted';
    document.body.append(element);
    window.CalcWidget?.mount(element, { calcId: 'vat', apiKey, analytics: 'off' });
  }, account.apiKey);
  await waitForEvent(page, 'calc:ready', 'mounted');
  await field(page, 'mounted', 'rate').fill('19');
  await field(page, 'off', 'weight').fill('88');
  await page.clock.runFor(60_000);
  expect(await beacons(page)).toEqual([{ calcId: 'tip', events: ['view'] }]);

  // The switch on the script tag: every element of the page.
  const html = hostPage({
    api: suite.api.url,
    widgets: [
      { id: 'a', calcId: 'bmi', apiKey: account.apiKey },
      { id: 'b', calcId: 'tip', apiKey: account.apiKey },
    ],
  }).replace('widget.js" async>', 'widget.js" async data-analytics="off">');
  expect(html).toContain('data-analytics="off"');
  await suite.open(html);
  for (const id of ['a', 'b']) await waitForEvent(page, 'calc:ready', id);
  await field(page, 'a', 'weight').fill('88');
  await page.clock.runFor(60_000);
  await page.evaluate(() => {
    for (const id of ['a', 'b']) {
      const element = document.getElementById(id);
      if (element) window.CalcWidget?.destroy(element);
    }
  });
  expect(await beacons(page)).toEqual([]);
  expect(requests).toHaveLength(1);
  await serverSees([{ calcId: 'tip', views: 1, starts: 0, completes: 0 }]);
});

test('nothing is kept in the browser: no cookie, no local or session storage, no IndexedDB; no visitor named', async () => {
  const { page, context } = suite;
  const bodies: string[] = [];
  const methods: string[] = [];
  page.on('request', (request) => {
    if (!request.url().includes('/v1/widget/events')) return;
    methods.push(request.method());
    bodies.push(request.postData() ?? '');
  });
  await open([{ id: 'w', calcId: 'bmi', attributes: 'data-context="eyJhbGciOiJIUzI1NiJ9.e30.sig"' }]);
  await page.clock.runFor(1_000);
  await field(page, 'w', 'weight').fill('77');
  expect(await beacons(page)).toHaveLength(2);
  const kept = await page.evaluate(async () => ({
    cookie: document.cookie,
    local: localStorage.length,
    session: sessionStorage.length,
    databases: (await indexedDB.databases()).length,
  }));
  expect(kept).toEqual({ cookie: '', local: 0, session: 0, databases: 0 });
  expect(await context.cookies()).toEqual([]);
  // Simple requests: no preflight. They carry the key, the page's origin, the calculator and the steps: nothing else.
  expect(methods).toEqual(['POST', 'POST']);
  expect(bodies.map((body) => Object.keys(JSON.parse(body)).sort())).toEqual([
    ['apiKey', 'calcId', 'domain', 'events'],
    ['apiKey', 'calcId', 'domain', 'events'],
  ]);
  expect(JSON.parse(bodies[0] ?? '{}')).toMatchObject({ apiKey: account.apiKey, domain: suite.site.origin });
});
