/**
 * Visitor context in real Chromium: an element's data-context reaches the server with the
 * load, and the owner's endpoint receives the visitor in a signed pull from the real pull,
 * against a real target on 127.0.0.2.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from 'bun:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { mintContext } from '../../src/security/visitor-context.ts';
import { HOOK_TIMEOUT_MS } from '../helpers/timeouts.ts';
import { testApp, type TestApp } from '../helpers/test-app.ts';
import { startTarget, type TargetServer } from '../helpers/webhook-target.ts';
import { launchChromium } from '../helpers/chromium.ts';
import type { PageRecord } from './support/browser.ts';
import { hostPage, startHostSite, type HostSite } from './support/servers.ts';
import { closeRecordedPage, field, openHostPage, openRecordedPage, waitForEvent } from './support/widget-page.ts';

let browser: Browser;
let app: TestApp;
let apiUrl: string;
let site: HostSite;
let target: TargetServer;
let context: BrowserContext;
let page: Page;
let record: PageRecord;
let owner: { apiKey: string; secret: string };

beforeAll(async () => {
  target = startTarget('127.0.0.2', () => Response.json({ weightKg: 64 }));
  app = testApp({ env: { CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.2/32' } });
  app.app.listen({ hostname: '127.0.0.1', port: 0 });
  apiUrl = `http://localhost:${app.app.server?.port}`;
  site = startHostSite();
  const account = await app.signup();
  await app.accounts.setPlan(account.id, 'extra');
  await app.request('POST', '/v1/domains', { token: account.token, body: { domain: site.origin } });
  await app.request('PUT', '/v1/widget-config/bmi', {
    token: account.token,
    body: { config: { webhook: { url: target.url('/prefill') } } },
  });
  const secret = await app.request('GET', '/v1/account/signing-secret', { token: account.token });
  owner = { apiKey: account.apiKey, secret: secret.json.signingSecret };
  browser = await launchChromium();
}, HOOK_TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
  await app?.app.stop(true);
  app?.[Symbol.dispose]();
  await site?.stop();
  await target?.stop();
}, HOOK_TIMEOUT_MS);

beforeEach(async () => {
  ({ context, page, record } = await openRecordedPage(browser));
}, HOOK_TIMEOUT_MS);

afterEach(() => closeRecordedPage({ context, page, record }), HOOK_TIMEOUT_MS);

/** Opens bmi with `attributes` and returns the headers of the pull its load caused. */
async function pullFor(attributes: string): Promise<Record<string, string>> {
  const before = target.hits;
  await openHostPage(
    page,
    site,
    hostPage({ api: apiUrl, widgets: [{ calcId: 'bmi', apiKey: owner.apiKey, attributes }] }),
  );
  await waitForEvent(page, 'calc:ready', 'w0');
  // The webhook's value is shown: the load went through the pull.
  expect(await field(page, 'w0', 'weight').inputValue()).toBe('64');
  expect(target.hits).toBe(before + 1);
  return target.requests.at(-1)?.headers ?? {};
}

test('an element with data-context makes the target receive Calc-Visitor', async () => {
  const token = mintContext(owner.secret, {
    sub: 'cust_browser_1',
    exp: Math.floor(Date.now() / 1000) + 600,
    calc: 'bmi',
    origin: site.origin,
  });
  const headers = await pullFor(`data-units="metric" data-context="${token}"`);
  expect(headers['calc-visitor']).toBe('cust_browser_1');
  expect(headers['calc-origin']).toBe(site.origin);
  expect(headers['calc-calculator']).toBe('bmi');
});

test('without data-context, or with a bad one, the visitor sees the same calculator and no visitor is named', async () => {
  expect((await pullFor('data-units="metric"'))['calc-visitor']).toBeUndefined();
  const forged = mintContext('whsec_not_the_owners_secret_000000000', {
    sub: 'cust_forged',
    exp: Math.floor(Date.now() / 1000) + 600,
  });
  expect((await pullFor(`data-units="metric" data-context="${forged}"`))['calc-visitor']).toBeUndefined();
  expect((await pullFor('data-units="metric" data-context="garbage"'))['calc-visitor']).toBeUndefined();
});
