/**
 * The funnel on the Usage page, in Chromium: bars per calculator and the same numbers as a
 * table, narrowed to one domain and to other dates; axe-core finds nothing serious.
 */
import { expect, test } from 'bun:test';
import {
  dashboardContext,
  docsScreenshot,
  expectOnlyLocal,
  FLOW_TIMEOUT_MS,
  PASSWORD,
  seriousViolations,
  signIn,
  useDashboard,
} from './support/dashboard.ts';

const suite = useDashboard();
const SHOP = 'https://shop.example';
const BLOG = 'https://blog.example';

async function report(apiKey: string, calcId: string, domain: string, events: string[], times = 1) {
  for (let i = 0; i < times; i++) {
    const res = await fetch(`${suite.server.url}/v1/widget/events`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', origin: domain },
      body: JSON.stringify({ apiKey, domain, calcId, events }),
    });
    expect(res.status).toBe(204);
  }
}

test(
  'a funnel per calculator with its rates, as bars and as a table, narrowed by domain and dates',
  async () => {
    const owner = await suite.server.app.signup(`funnel-${crypto.randomUUID().slice(0, 6)}@shop.example`, PASSWORD);
    for (const domain of [SHOP, BLOG]) await suite.server.api('POST', '/v1/domains', owner.token, { domain });
    await report(owner.apiKey, 'bmi', SHOP, ['view'], 6);
    await report(owner.apiKey, 'bmi', SHOP, ['view', 'start', 'complete'], 2);
    await report(owner.apiKey, 'bmi', BLOG, ['view', 'start'], 2);
    await report(owner.apiKey, 'loan', BLOG, ['view'], 3);
    const { context, watched } = await dashboardContext(suite.browser);
    const page = await context.newPage();
    await page.goto(`${suite.server.url}/dashboard/usage`);
    await signIn(page, owner.email);
    await page.getByRole('heading', { level: 2, name: 'Funnel' }).waitFor();
    const table = page.getByRole('table', { name: /^Funnel by calculator/ });
    const cells = async () =>
      (await table.locator('tbody tr').allInnerTexts()).map((row) => row.split('\t').map((cell) => cell.trim()));
    await table.waitFor();
    expect(await table.locator('thead th').allInnerTexts()).toEqual([
      'Calculator',
      'Views',
      'Starts',
      'Started (of views)',
      'Completes',
      'Completed (of starts)',
      'Submits',
      'Submitted (of completes)',
    ]);
    expect(await cells()).toEqual([
      ['bmi', '10', '4', '40.0 %', '2', '50.0 %', '0', '0.0 %'],
      ['loan', '3', '0', '0.0 %', '0', '–', '0', '–'],
      ['All calculators', '13', '4', '30.8 %', '2', '50.0 %', '0', '0.0 %'],
    ]);
    // One set of bars per calculator, under its name.
    expect(await page.getByRole('heading', { level: 3 }).allInnerTexts()).toEqual(['bmi', 'loan']);
    expect(await seriousViolations(page)).toEqual([]);
    await docsScreenshot(page, 'usage-funnel');

    // One domain: the same numbers from that origin alone.
    await page.getByLabel('Domain', { exact: true }).selectOption(BLOG);
    await table.filter({ hasText: BLOG }).waitFor();
    expect(await cells()).toEqual([
      ['bmi', '2', '2', '100.0 %', '0', '0.0 %', '0', '–'],
      ['loan', '3', '0', '0.0 %', '0', '–', '0', '–'],
      ['All calculators', '5', '2', '40.0 %', '0', '0.0 %', '0', '–'],
    ]);
    // Dates without steps: said so, no table.
    await page.getByLabel('From', { exact: true }).fill('2020-01-01');
    await page.getByLabel('To', { exact: true }).fill('2020-01-31');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByText(`No funnel steps from 2020-01-01 to 2020-01-31 on ${BLOG}.`).waitFor();
    expect(await table.count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    expectOnlyLocal(watched, suite.server.url);
    expect(watched.violations).toEqual([]);
    await context.close();
  },
  FLOW_TIMEOUT_MS,
);
