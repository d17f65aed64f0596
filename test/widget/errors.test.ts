/**
 * Failure is quiet: whatever goes wrong, the visitor sees a short "Calculator
 * unavailable" note, the console gets a warning with the error code, the host gets a
 * calc:error event, and nothing is thrown into the page.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.ts';
import { screenshot, type PageRecord } from './support/browser.ts';
import { hostPage, startApi, startHostSite, type ApiServer, type HostSite } from './support/servers.ts';
import {
  closeRecordedPage,
  events,
  field,
  openHostPage,
  openRecordedPage,
  unavailableNote,
  waitForEvent,
} from './support/widget-page.ts';
import { HOOK_TIMEOUT_MS } from '../helpers/timeouts.ts';

let browser: Browser;
let api: ApiServer;
let quotaApi: ApiServer;
let site: HostSite;
let context: BrowserContext;
let page: Page;
let record: PageRecord;

beforeAll(async () => {
  api = startApi();
  // A free plan with one load a month: the second load is refused.
  quotaApi = startApi({ flags: { 'quota-free': 1 } });
  site = startHostSite();
  browser = await launchChromium();
}, HOOK_TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
  await api?.stop();
  await quotaApi?.stop();
  await site?.stop();
}, HOOK_TIMEOUT_MS);

beforeEach(async () => {
  ({ context, page, record } = await openRecordedPage(browser));
}, HOOK_TIMEOUT_MS);

afterEach(() => closeRecordedPage({ context, page, record }), HOOK_TIMEOUT_MS);

/** A host page with `widgets` and a paragraph after them, which must keep working. */
function open(apiUrl: string, widgets: { calcId: string; apiKey: string }[]): Promise<string> {
  return openHostPage(
    page,
    site,
    hostPage({ api: apiUrl, widgets, after: '<p id="after">The host page keeps working.</p>' }),
  );
}

/** The note, the warning with the code, the calc:error event — and the host page is fine. */
async function expectUnavailable(code: string, host = 'w0'): Promise<void> {
  const error = await waitForEvent(page, 'calc:error', host);
  expect(error.detail).toMatchObject({ code });
  expect(await unavailableNote(page, host).textContent()).toBe('Calculator unavailable');
  expect(await page.locator(`#${host} input`).count()).toBe(0);
  expect(record.warnings.some((warning) => warning.startsWith('[calc]') && warning.includes(code))).toBe(true);
  expect(await page.locator('#after').textContent()).toBe('The host page keeps working.');
  expect(await events(page, 'calc:ready', host)).toEqual([]);
}

describe('refused by the API', () => {
  test('an unregistered origin: domain_not_registered', async () => {
    const { apiKey } = await api.accountFor('https://some-other-shop.example');
    await open(api.url, [{ calcId: 'bmi', apiKey }]);
    await expectUnavailable('domain_not_registered');
    await screenshot(page, 'unavailable');
  });

  test('a bad key: invalid_api_key', async () => {
    await open(api.url, [{ calcId: 'bmi', apiKey: 'pk_thisKeyDoesNotExist000000' }]);
    await expectUnavailable('invalid_api_key');
  });

  test('an exhausted quota: quota_exceeded on the load after the last one allowed', async () => {
    const { apiKey } = await quotaApi.accountFor(site.origin);
    const url = await open(quotaApi.url, [{ calcId: 'bmi', apiKey }]);
    await waitForEvent(page, 'calc:ready', 'w0');
    await page.goto(url);
    await expectUnavailable('quota_exceeded');
  });

  test('one widget failing does not disturb another on the same page', async () => {
    const { apiKey } = await api.accountFor(site.origin);
    await open(api.url, [
      { calcId: 'bmi', apiKey: 'pk_thisKeyDoesNotExist000000' },
      { calcId: 'bmi', apiKey },
    ]);
    await expectUnavailable('invalid_api_key', 'w0');
    await waitForEvent(page, 'calc:ready', 'w1');
    await field(page, 'w1', 'weight').fill('80');
    expect(await field(page, 'w1', 'weight').inputValue()).toBe('80');
  });
});

describe('refused with nothing spent', () => {
  test('an unknown calculator id: the server answers calculator_not_found, and no load is spent', async () => {
    const { apiKey, token } = await api.accountFor(site.origin);
    // An id the script does not bundle may be an owner's calculator: only the server knows.
    const loads: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/v1/widget/load')) loads.push(request.url());
    });
    await open(api.url, [{ calcId: 'no-such-calculator', apiKey }]);
    await expectUnavailable('calculator_not_found');
    expect(loads).toHaveLength(1);
    const account = await fetch(`${api.url}/v1/account`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await account.json()) as { usage: { used: number } }).usage.used).toBe(0);
  });

  test('a missing key: missing_api_key', async () => {
    await open(api.url, [{ calcId: 'bmi', apiKey: '' }]);
    await expectUnavailable('missing_api_key');
  });
});

describe('the API cannot be reached', () => {
  test('connection refused on the load: network_error', async () => {
    const { apiKey } = await api.accountFor(site.origin);
    await page.route(`${api.url}/v1/widget/load`, (route) => route.abort('connectionrefused'));
    await open(api.url, [{ calcId: 'bmi', apiKey }]);
    await expectUnavailable('network_error');
  });

  test('a proxy error page instead of JSON: http_502', async () => {
    const { apiKey } = await api.accountFor(site.origin);
    await page.route(`${api.url}/v1/widget/load`, (route) =>
      route.fulfill({
        status: 502,
        contentType: 'text/html',
        body: '<h1>Bad gateway</h1>',
        headers: { 'access-control-allow-origin': '*' },
      }),
    );
    await open(api.url, [{ calcId: 'bmi', apiKey }]);
    await expectUnavailable('http_502');
  });

  test('a 200 that is not JSON: bad_response', async () => {
    const { apiKey } = await api.accountFor(site.origin);
    await page.route(`${api.url}/v1/widget/load`, (route) =>
      route.fulfill({
        status: 200,
        contentType: 'text/html',
        body: 'maintenance',
        headers: { 'access-control-allow-origin': '*' },
      }),
    );
    await open(api.url, [{ calcId: 'bmi', apiKey }]);
    await expectUnavailable('bad_response');
  });
});
