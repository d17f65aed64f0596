/**
 * The setup every Chromium widget suite shares: the API, a host site, a customer's
 * pre-fill webhook, a browser and a recorded page per test.
 */
import { afterAll, afterEach, beforeAll, beforeEach } from 'bun:test';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import type { InputValues as FieldValues } from '../../../src/definition/types.ts';
import { HOOK_TIMEOUT_MS } from '../../helpers/timeouts.ts';
import { launchChromium } from '../../helpers/chromium.ts';
import type { PageRecord } from './browser.ts';
import {
  PREFILL_API,
  type PrefillWebhook,
  startApi,
  startHostSite,
  startPrefillWebhook,
  type ApiServer,
  type HostSite,
} from './servers.ts';
import { closeRecordedPage, openHostPage, openRecordedPage } from './widget-page.ts';

export interface WidgetSuiteOptions {
  /** Passed to startApi. */
  api?: Parameters<typeof startApi>[0];
  /** Sign up one account for the host site before the tests (its key is `apiKey`). */
  account?: boolean;
  /** The shared account (implied) pre-fills bmi with these values from its webhook. */
  prefill?: FieldValues;
  /** The browser context options of the page each test starts with. */
  context?: BrowserContextOptions;
  /** Called with every page opened, before it navigates: to watch its requests, add init scripts. */
  onPage?: (page: Page) => void | Promise<void>;
}

export interface WidgetSuite {
  readonly api: ApiServer;
  readonly site: HostSite;
  /** The shared account's key (only with `account: true`). */
  readonly apiKey: string;
  readonly context: BrowserContext;
  readonly page: Page;
  readonly record: PageRecord;
  /** Replaces the current page with a fresh one opened with `options` (the old context is the test's to close). */
  reopen(options?: BrowserContextOptions): Promise<void>;
  /** Opens `html` from the host site in the current page (see openHostPage). */
  open(html: string, options?: Parameters<typeof openHostPage>[3]): Promise<string>;
  /**
   * Signs up a fresh account for the host site whose `calcId` webhook (bmi's unless
   * given) answers `values` (after `gate`, when given), through the real pull; its key.
   */
  accountWithPrefill(values: FieldValues, gate?: Promise<void>, calcId?: string): Promise<string>;
}

/** Registers the suite's hooks; the returned getters give the current servers, browser and page. */
export function useWidgetPage(options: WidgetSuiteOptions = {}): WidgetSuite {
  let api: ApiServer;
  let site: HostSite;
  let webhook: PrefillWebhook;
  let browser: Browser;
  let apiKey = '';
  let context: BrowserContext;
  let page: Page;
  let record: PageRecord;

  async function reopen(contextOptions: BrowserContextOptions = options.context ?? {}): Promise<void> {
    ({ context, page, record } = await openRecordedPage(browser, contextOptions));
    await options.onPage?.(page);
  }

  async function accountWithPrefill(values: FieldValues, gate?: Promise<void>, calcId = 'bmi'): Promise<string> {
    const account = await api.accountFor(site.origin);
    await api.useWebhook(account, calcId, webhook.answering(values, gate));
    return account.apiKey;
  }

  beforeAll(async () => {
    webhook = startPrefillWebhook();
    api = startApi({ ...PREFILL_API, ...options.api });
    site = startHostSite();
    if (options.prefill) apiKey = await accountWithPrefill(options.prefill);
    else if (options.account) ({ apiKey } = await api.accountFor(site.origin));
    browser = await launchChromium();
  }, HOOK_TIMEOUT_MS);

  afterAll(async () => {
    await browser?.close();
    await api?.stop();
    await site?.stop();
    await webhook?.stop();
  }, HOOK_TIMEOUT_MS);

  beforeEach(() => reopen(), HOOK_TIMEOUT_MS);

  afterEach(() => closeRecordedPage({ context, page, record }), HOOK_TIMEOUT_MS);

  return {
    get api() {
      return api;
    },
    get site() {
      return site;
    },
    get apiKey() {
      return apiKey;
    },
    get context() {
      return context;
    },
    get page() {
      return page;
    },
    get record() {
      return record;
    },
    reopen,
    open: (html, openOptions) => openHostPage(page, site, html, openOptions),
    accountWithPrefill,
  };
}

/** Collects the page's CSP violations in window.cspViolations, from before the first script runs. */
export async function recordCspViolations(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const seen: string[] = [];
    Object.defineProperty(window, 'cspViolations', { value: seen });
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(`${event.violatedDirective} ${event.blockedURI}`),
    );
  });
}

/** A host policy allowing nothing but the API origin. */
export const strictPolicy = (apiUrl: string): string =>
  `default-src 'none'; script-src ${apiUrl}; connect-src ${apiUrl}; style-src ${apiUrl}; img-src ${apiUrl}`;
