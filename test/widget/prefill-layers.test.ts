/**
 * Layered pre-fill in real Chromium: default < the page's data-values < the webhook's
 * values < what the visitor typed, with calc:ready reporting each field's source, and
 * values failing a field's rules ignored at every layer.
 */
import { expect, setDefaultTimeout, test } from 'bun:test';
import type { InputValues as FieldValues } from '../../src/definition/types.ts';
import { hostPage } from './support/servers.ts';
import { events, field, resultValue, waitForEvent } from './support/widget-page.ts';
import { useWidgetPage } from './support/widget-suite.ts';

// Whole pages of widgets in a real browser: a loaded machine must not turn that into a failure.
setDefaultTimeout(60_000);

// Each account's webhook answers with its own values (accountWithPrefill).
const suite = useWidgetPage();

const attribute = (json: string) => `data-units="metric" data-values='${json}'`;

interface Row {
  name: string;
  embed?: string;
  webhook: FieldValues;
  typed?: string;
  weight: string;
  height: string;
  sources: { weight: string; height: string };
}

// BMI, metric: defaults 70 kg and 175 cm.
const TABLE: Row[] = [
  {
    name: 'defaults only',
    webhook: {},
    weight: '70',
    height: '175',
    sources: { weight: 'default', height: 'default' },
  },
  {
    name: 'embed over default',
    embed: '{"weightKg": 80}',
    webhook: {},
    weight: '80',
    height: '175',
    sources: { weight: 'embed', height: 'default' },
  },
  {
    name: 'webhook over embed, field by field',
    embed: '{"weightKg": 80, "heightCm": 180}',
    webhook: { weightKg: 90 },
    weight: '90',
    height: '180',
    sources: { weight: 'webhook', height: 'embed' },
  },
  {
    name: 'typed over webhook and embed',
    embed: '{"weightKg": 80, "heightCm": 180}',
    webhook: { weightKg: 90, heightCm: 190 },
    typed: '65',
    weight: '65',
    height: '190',
    sources: { weight: 'typed', height: 'webhook' },
  },
  {
    name: 'embed values failing the rules are ignored (range, type, unknown key)',
    embed: '{"weightKg": 1000, "heightCm": "180", "shoeSize": 44}',
    webhook: {},
    weight: '70',
    height: '175',
    sources: { weight: 'default', height: 'default' },
  },
  {
    name: 'a webhook value failing the rules leaves the embed value',
    embed: '{"weight": 82.5}',
    webhook: { weight: 5000, heightCm: 170 },
    weight: '82.5',
    height: '170',
    sources: { weight: 'embed', height: 'webhook' },
  },
  {
    name: 'broken JSON in data-values is ignored',
    embed: '{weightKg: 80',
    webhook: {},
    weight: '70',
    height: '175',
    sources: { weight: 'default', height: 'default' },
  },
];

test.each(TABLE)('precedence: $name', async (row) => {
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const apiKey = await suite.accountWithPrefill(row.webhook, gate);
  await suite.open(
    hostPage({
      api: suite.api.url,
      widgets: [{ calcId: 'bmi', apiKey, attributes: row.embed ? attribute(row.embed) : 'data-units="metric"' }],
    }),
  );
  // Before the answer: the page's values are already shown and computed with.
  await waitForEvent(suite.page, 'calc:result', 'w0');
  const first = (await events(suite.page, 'calc:result', 'w0'))[0];
  if (row.embed?.includes('"weightKg": 80')) expect(first?.detail.values).toMatchObject({ weight: 80 });
  if (row.typed) await field(suite.page, 'w0', 'weight').fill(row.typed);
  release();
  const ready = await waitForEvent(suite.page, 'calc:ready', 'w0');
  expect(await field(suite.page, 'w0', 'weight').inputValue()).toBe(row.weight);
  expect(await field(suite.page, 'w0', 'height').inputValue()).toBe(row.height);
  expect(ready.detail).toEqual({
    calcId: 'bmi',
    sources: row.sources,
    values: { weight: Number(row.weight), height: Number(row.height) },
  });
  const bmi = Number(row.weight) / (Number(row.height) / 100) ** 2;
  expect(await resultValue(suite.page, 'w0').textContent()).toBe(bmi.toFixed(1));
});

test('data-values in the displayed units: imperial weight and height keys, select options checked', async () => {
  const apiKey = await suite.accountWithPrefill({});
  await suite.open(
    hostPage({
      api: suite.api.url,
      widgets: [
        { calcId: 'bmi', apiKey, attributes: `data-units="imperial" data-values='{"weight": 180, "heightCm": 180}'` },
        { calcId: 'body-fat', apiKey, attributes: `data-values='{"sex": "female", "hipCm": 100}'` },
        { calcId: 'tdee', apiKey, attributes: `data-values='{"activity": "sometimes"}'` },
      ],
    }),
  );
  const bmi = await waitForEvent(suite.page, 'calc:ready', 'w0');
  expect(await field(suite.page, 'w0', 'weight').inputValue()).toBe('180');
  expect(await field(suite.page, 'w0', 'height').inputValue()).toBe('70.9');
  expect(bmi.detail.sources).toEqual({ weight: 'embed', height: 'embed' });
  const bodyFat = await waitForEvent(suite.page, 'calc:ready', 'w1');
  expect(await field(suite.page, 'w1', 'sex').inputValue()).toBe('female');
  expect(await field(suite.page, 'w1', 'hip').isVisible()).toBe(true);
  expect((bodyFat.detail.sources as Record<string, string>).sex).toBe('embed');
  const tdee = await waitForEvent(suite.page, 'calc:ready', 'w2');
  expect(await field(suite.page, 'w2', 'activity').inputValue()).toBe('moderate');
  expect((tdee.detail.sources as Record<string, string>).activity).toBe('default');
});
