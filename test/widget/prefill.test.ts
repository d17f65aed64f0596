/**
 * Pre-fill in real Chromium: values from the load answer are applied (bmi's four keys
 * with the documented precedence (docs/embedding.md), converted to the shown units), and a field the
 * visitor typed in before the answer arrived keeps the visitor's value.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from 'bun:test';
import type { FieldValues } from '../../src/calculators/definition.ts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, screenshot, type PageRecord } from './support/browser.ts';
import { hostPage, startApi, startHostSite, type ApiServer, type HostSite } from './support/servers.ts';
import {
  closeRecordedPage,
  events,
  field,
  openRecordedPage,
  resultValue,
  waitForEvent,
} from './support/widget-page.ts';
import { HOOK_TIMEOUT_MS } from '../helpers/timeouts.ts';

// Each test's account gets its own pre-fill source, looked up by the account's email.
const prefills = new Map<string, () => Promise<FieldValues>>();

let browser: Browser;
let api: ApiServer;
let site: HostSite;
let context: BrowserContext;
let page: Page;
let record: PageRecord;

beforeAll(async () => {
  api = startApi({ prefill: async (account) => (await prefills.get(account.email)?.()) ?? {} });
  site = startHostSite();
  browser = await launchChromium();
}, HOOK_TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
  await api?.stop();
  await site?.stop();
}, HOOK_TIMEOUT_MS);

beforeEach(async () => {
  ({ context, page, record } = await openRecordedPage(browser));
}, HOOK_TIMEOUT_MS);

afterEach(() => closeRecordedPage({ context, page, record }), HOOK_TIMEOUT_MS);

/** A fresh account whose loads answer with `values` (after `gate`, when given). */
async function accountWithPrefill(values: FieldValues, gate?: Promise<void>): Promise<string> {
  const { apiKey, email } = await api.accountFor(site.origin);
  prefills.set(email, async () => {
    await gate;
    return values;
  });
  return apiKey;
}

async function openBmi(apiKey: string, attributes: string): Promise<void> {
  await page.goto(
    site.page(`/${crypto.randomUUID()}`, hostPage({ api: api.url, widgets: [{ calcId: 'bmi', apiKey, attributes }] })),
  );
}

test('weightKg from the load answer is applied: 90 kg at 175 cm is a BMI of 29.4', async () => {
  await openBmi(await accountWithPrefill({ weightKg: 90 }), 'data-units="metric"');
  await waitForEvent(page, 'calc:ready', 'w0');
  expect(await field(page, 'w0', 'weight').inputValue()).toBe('90');
  expect(await field(page, 'w0', 'height').inputValue()).toBe('175');
  expect(await resultValue(page, 'w0').textContent()).toBe('29.4');
  const last = (await events(page, 'calc:result', 'w0')).at(-1);
  expect(last?.detail.values).toEqual({ weight: 90, height: 175 });
  await screenshot(page, 'bmi-prefilled');
});

test('imperial: weightKg wins over weight and is shown in lb; height is in the shown unit (in)', async () => {
  await openBmi(await accountWithPrefill({ weightKg: 90, weight: 200, height: 70 }), 'data-units="imperial"');
  await waitForEvent(page, 'calc:ready', 'w0');
  expect(await field(page, 'w0', 'weight').inputValue()).toBe('198.4');
  expect(await field(page, 'w0', 'height').inputValue()).toBe('70');
  // 90 kg at 70 in (177.8 cm): 28.47…
  expect(await resultValue(page, 'w0').textContent()).toBe('28.5');
});

test('the seed pair weight + heightCm pre-fills in metric; heightCm is converted in imperial', async () => {
  await openBmi(await accountWithPrefill({ weight: 80, heightCm: 180 }), 'data-units="metric"');
  await waitForEvent(page, 'calc:ready', 'w0');
  expect(await field(page, 'w0', 'weight').inputValue()).toBe('80');
  expect(await field(page, 'w0', 'height').inputValue()).toBe('180');
  expect(await resultValue(page, 'w0').textContent()).toBe('24.7');

  await openBmi(await accountWithPrefill({ height: 70, weightKg: 80, heightCm: 180 }), 'data-units="imperial"');
  await waitForEvent(page, 'calc:ready', 'w0');
  expect(await field(page, 'w0', 'height').inputValue()).toBe('70.9');
  expect(await field(page, 'w0', 'weight').inputValue()).toBe('176.4');
  expect(await resultValue(page, 'w0').textContent()).toBe('24.7');
});

test('a field typed in before the answer arrives is not overwritten; the others are filled', async () => {
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  await openBmi(await accountWithPrefill({ weightKg: 90, heightCm: 190 }, gate), 'data-units="metric"');
  await waitForEvent(page, 'calc:result', 'w0');
  expect(await events(page, 'calc:ready', 'w0')).toEqual([]);
  await field(page, 'w0', 'weight').fill('60');
  release();
  await waitForEvent(page, 'calc:ready', 'w0');
  expect(await field(page, 'w0', 'weight').inputValue()).toBe('60');
  expect(await field(page, 'w0', 'height').inputValue()).toBe('190');
  // 60 kg at 190 cm: 16.6, underweight.
  expect(await resultValue(page, 'w0').textContent()).toBe('16.6');
});

test('values outside the shown range and unknown keys are ignored', async () => {
  await openBmi(await accountWithPrefill({ weight: 1000, heightCm: 180, shoeSize: 44 }), 'data-units="metric"');
  await waitForEvent(page, 'calc:ready', 'w0');
  expect(await field(page, 'w0', 'weight').inputValue()).toBe('70');
  expect(await field(page, 'w0', 'height').inputValue()).toBe('180');
});
