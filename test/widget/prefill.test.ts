/**
 * Pre-fill in real Chromium: values from the load answer are applied (bmi's four keys
 * with the documented precedence (docs/embedding.md), converted to the shown units), and a field the
 * visitor typed in before the answer arrived keeps the visitor's value.
 */
import { expect, test } from 'bun:test';
import { screenshot } from './support/browser.ts';
import { hostPage } from './support/servers.ts';
import { events, field, resultValue, waitForEvent } from './support/widget-page.ts';
import { useWidgetPage } from './support/widget-suite.ts';

// Each test's account has its own webhook, called through the real pull.
const suite = useWidgetPage();

async function openBmi(apiKey: string, attributes: string): Promise<void> {
  await suite.open(hostPage({ api: suite.api.url, widgets: [{ calcId: 'bmi', apiKey, attributes }] }));
}

test('weightKg from the load answer is applied: 90 kg at 175 cm is a BMI of 29.4', async () => {
  await openBmi(await suite.accountWithPrefill({ weightKg: 90 }), 'data-units="metric"');
  await waitForEvent(suite.page, 'calc:ready', 'w0');
  expect(await field(suite.page, 'w0', 'weight').inputValue()).toBe('90');
  expect(await field(suite.page, 'w0', 'height').inputValue()).toBe('175');
  expect(await resultValue(suite.page, 'w0').textContent()).toBe('29.4');
  const last = (await events(suite.page, 'calc:result', 'w0')).at(-1);
  expect(last?.detail.values).toEqual({ weight: 90, height: 175 });
  await screenshot(suite.page, 'bmi-prefilled');
});

test('imperial: weightKg wins over weight and is shown in lb; height is in the shown unit (in)', async () => {
  await openBmi(await suite.accountWithPrefill({ weightKg: 90, weight: 200, height: 70 }), 'data-units="imperial"');
  await waitForEvent(suite.page, 'calc:ready', 'w0');
  expect(await field(suite.page, 'w0', 'weight').inputValue()).toBe('198.4');
  expect(await field(suite.page, 'w0', 'height').inputValue()).toBe('70');
  // 90 kg at 70 in (177.8 cm): 28.47…
  expect(await resultValue(suite.page, 'w0').textContent()).toBe('28.5');
});

test('the seed pair weight + heightCm pre-fills in metric; heightCm is converted in imperial', async () => {
  await openBmi(await suite.accountWithPrefill({ weight: 80, heightCm: 180 }), 'data-units="metric"');
  await waitForEvent(suite.page, 'calc:ready', 'w0');
  expect(await field(suite.page, 'w0', 'weight').inputValue()).toBe('80');
  expect(await field(suite.page, 'w0', 'height').inputValue()).toBe('180');
  expect(await resultValue(suite.page, 'w0').textContent()).toBe('24.7');

  await openBmi(await suite.accountWithPrefill({ height: 70, weightKg: 80, heightCm: 180 }), 'data-units="imperial"');
  await waitForEvent(suite.page, 'calc:ready', 'w0');
  expect(await field(suite.page, 'w0', 'height').inputValue()).toBe('70.9');
  expect(await field(suite.page, 'w0', 'weight').inputValue()).toBe('176.4');
  expect(await resultValue(suite.page, 'w0').textContent()).toBe('24.7');
});

test('a field typed in before the answer arrives is not overwritten; the others are filled', async () => {
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  await openBmi(await suite.accountWithPrefill({ weightKg: 90, heightCm: 190 }, gate), 'data-units="metric"');
  await waitForEvent(suite.page, 'calc:result', 'w0');
  expect(await events(suite.page, 'calc:ready', 'w0')).toEqual([]);
  await field(suite.page, 'w0', 'weight').fill('60');
  release();
  await waitForEvent(suite.page, 'calc:ready', 'w0');
  expect(await field(suite.page, 'w0', 'weight').inputValue()).toBe('60');
  expect(await field(suite.page, 'w0', 'height').inputValue()).toBe('190');
  // 60 kg at 190 cm: 16.6, underweight.
  expect(await resultValue(suite.page, 'w0').textContent()).toBe('16.6');
});

test('values outside the shown range and unknown keys are ignored', async () => {
  await openBmi(await suite.accountWithPrefill({ weight: 1000, heightCm: 180, shoeSize: 44 }), 'data-units="metric"');
  await waitForEvent(suite.page, 'calc:ready', 'w0');
  expect(await field(suite.page, 'w0', 'weight').inputValue()).toBe('70');
  expect(await field(suite.page, 'w0', 'height').inputValue()).toBe('180');
});
