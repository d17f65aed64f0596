/**
 * End to end in real Chromium: an owner creates and publishes a calculator of their own
 * through the API, embeds it on a page served with the strict Content-Security-Policy of
 * docs/embedding.md (no 'unsafe-eval', nothing inline), and a visitor types into it. The
 * real API answers the load (counted in usage), the real pull fetches the owner's webhook
 * and merges its answer through the calculator's own input keys, the browser's results
 * equal the server's evaluation, and axe finds nothing serious.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import type { Definition } from '../../src/definition/types.ts';
import { roofQuote } from '../fixtures/roof-quote.ts';
import { HOOK_TIMEOUT_MS } from '../helpers/timeouts.ts';
import { seriousAxeFindings } from './support/axe.ts';
import { hostPage, type PrefillWebhook, startPrefillWebhook } from './support/servers.ts';
import { band, events, field, waitForEvent } from './support/widget-page.ts';
import { recordCspViolations, strictPolicy, useWidgetPage } from './support/widget-suite.ts';

setDefaultTimeout(60_000);

const suite = useWidgetPage();
let hook: PrefillWebhook;
let owner: { apiKey: string; token: string };

/** An owner route of the suite's API, as the owner's own scripts would call it. */
async function ownerCall(method: string, path: string, body?: unknown) {
  const res = await fetch(`${suite.api.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** The server's evaluation of the published version, for inputs as the widget shows them. */
const serverOutputs = async (inputs: Record<string, unknown>) =>
  (await ownerCall('POST', '/v1/account/calculators/roof-quote/evaluate', { inputs })).outputs;

beforeAll(async () => {
  hook = startPrefillWebhook();
  const account = await suite.api.accountFor(suite.site.origin);
  owner = account;
  await ownerCall('POST', '/v1/account/calculators', { definition: roofQuote() });
  await ownerCall('POST', '/v1/account/calculators/roof-quote/publish');
  // The owner's webhook: valid values for three of the calculator's keys (a select, a toggle,
  // a number shown with the toggle); a string for the number input and a key it does not have.
  await suite.api.useWebhook(
    account,
    'roof-quote',
    hook.answering({ material: 'metal', removal: true, layers: 2, area: '300', colour: 'red' }),
  );
}, HOOK_TIMEOUT_MS);

afterAll(() => hook?.stop());

/** The host page: the owner's calculator under the strict policy, amounts in euros. */
async function openShop(calcId = 'roof-quote'): Promise<void> {
  await suite.open(
    hostPage({
      api: suite.api.url,
      before: '<main><h1>Roofing</h1>',
      after: '</main>',
      widgets: [{ calcId, apiKey: owner.apiKey, attributes: 'data-locale="en-GB" data-currency="EUR"' }],
    }),
    { headers: { 'content-security-policy': strictPolicy(suite.api.url) } },
  );
}

const shown = async () => suite.page.locator('#w0 [part="result-value"]').allTextContents();

describe("an owner's calculator from the API, on a page with the strict policy", () => {
  test("renders the published definition with the webhook's pre-fill through its own keys; typing gives the server's results", async () => {
    const before = (await ownerCall('GET', '/v1/usage')).total as number;
    await recordCspViolations(suite.context);
    await openShop();
    const ready = await waitForEvent(suite.page, 'calc:ready', 'w0');
    expect(ready.detail).toEqual({
      calcId: 'roof-quote',
      sources: { area: 'default', material: 'webhook', removal: 'webhook', layers: 'webhook' },
      values: { area: 120, material: 'metal', removal: true, layers: 2 },
    });
    expect(await suite.page.locator('#w0 .title').textContent()).toBe('Roof quote');
    expect(await field(suite.page, 'w0', 'material').inputValue()).toBe('metal');
    expect(await field(suite.page, 'w0', 'removal').isChecked()).toBe(true);
    expect(await field(suite.page, 'w0', 'layers').inputValue()).toBe('2');
    // 120 m² × 30 + 8 × 120 × 2 layers = 5,520; per m² 3,600 / 120. The primary output leads.
    expect(await suite.page.locator('#w0 [part~="result"] dt').allTextContents()).toEqual(['Per m²', 'Total']);
    expect(await shown()).toEqual(['30.00', '€5,520']);
    expect(await band(suite.page, 'w0', 1).textContent()).toBe('Medium job');
    expect(await serverOutputs({ material: 'metal', removal: true, layers: 2 })).toEqual({
      perSquareMetre: 30,
      total: 5520,
    });

    // The visitor types: a larger roof takes the table's 5 % off, tiles cost more.
    await field(suite.page, 'w0', 'area').fill('300');
    expect(await shown()).toEqual(['30.00', '€13,350']);
    await field(suite.page, 'w0', 'material').selectOption('tiles');
    await field(suite.page, 'w0', 'removal').uncheck();
    expect(await field(suite.page, 'w0', 'layers').isVisible()).toBe(false);
    // 300 × 45 less 5 % = 12,825; per m² 13,500 / 300.
    expect(await shown()).toEqual(['45.00', '€12,825']);
    const last = (await events(suite.page, 'calc:result', 'w0')).at(-1)?.detail;
    expect(last).toEqual({
      calcId: 'roof-quote',
      units: 'metric',
      values: { area: 300, material: 'tiles', removal: false },
      result: { perSquareMetre: 45, total: 12825 },
    });
    expect(await serverOutputs(last?.values as Record<string, unknown>)).toEqual(last?.result);

    // Nothing the policy refused, nothing serious for axe; the page's load was counted.
    expect(await suite.page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual(
      [],
    );
    expect(await seriousAxeFindings(suite.page)).toEqual([]);
    const usage = await ownerCall('GET', '/v1/usage');
    expect(usage.total).toBe(before + 1);
    expect(usage.rows.map((row: { calcId: string }) => row.calcId)).toContain('roof-quote');
  });

  test('a saved draft changes nothing on the page; once published, the next page view shows it', async () => {
    const first: Definition = { ...roofQuote(), id: 'roof-estimate', title: 'Roof estimate' };
    await ownerCall('POST', '/v1/account/calculators', { definition: first });
    await ownerCall('POST', '/v1/account/calculators/roof-estimate/publish');
    const renamed: Definition = { ...first, title: { en: 'Roof estimate 2', de: 'Dachschätzung 2' } };
    await ownerCall('PUT', '/v1/account/calculators/roof-estimate', { definition: renamed });
    await recordCspViolations(suite.context);
    await openShop('roof-estimate');
    await waitForEvent(suite.page, 'calc:ready', 'w0');
    expect(await suite.page.locator('#w0 .title').textContent()).toBe('Roof estimate');

    await ownerCall('POST', '/v1/account/calculators/roof-estimate/publish');
    await openShop('roof-estimate');
    await waitForEvent(suite.page, 'calc:ready', 'w0');
    expect(await suite.page.locator('#w0 .title').textContent()).toBe('Roof estimate 2');
    // No webhook for this one: the defaults, 120 m² of tiles.
    expect(await shown()).toEqual(['45.00', '€5,400']);
    expect(await suite.page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual(
      [],
    );
  });
});
