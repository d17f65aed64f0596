/**
 * The Results page and a calculator's results settings in Chromium: turn results on, see
 * what visitors sent, filter, open one, delete one after a confirmation, download the CSV
 * export (the token in a header, never in a URL); each checked against the API; axe finds
 * nothing serious.
 */
import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { SHOP_ORIGIN } from '../helpers/owners.ts';
import { submission } from '../helpers/results.ts';
import {
  dashboardContext,
  docsScreenshot,
  FLOW_TIMEOUT_MS,
  pageToken,
  PASSWORD,
  seriousViolations,
  signIn,
  useDashboard,
} from './support/dashboard.ts';

const suite = useDashboard();

async function submitted(apiKey: string, email: string): Promise<string> {
  const response = await fetch(`${suite.server.url}/v1/widget/submit`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain', origin: SHOP_ORIGIN },
    body: JSON.stringify(submission({ apiKey }, { contact: { email, name: email.split('@')[0] } })),
  });
  expect(response.status).toBe(202);
  return ((await response.json()) as { id: string }).id;
}

test(
  'turn results on for a calculator, then list, filter, view, delete and export what visitors sent',
  async () => {
    const { server } = suite;
    const owner = await server.app.signup(`results-${crypto.randomUUID().slice(0, 8)}@shop.example`, PASSWORD);
    await server.app.accounts.setPlan(owner.id, 'base');
    await server.api('POST', '/v1/domains', owner.token, { domain: SHOP_ORIGIN });
    const { context, watched } = await dashboardContext(suite.browser);
    const page = await context.newPage();
    await page.goto(`${server.url}/dashboard/calculators/bmi`);
    await signIn(page, owner.email);

    // The calculator page: the server's refusal shows; then a valid config is saved.
    const form = page.getByRole('region', { name: 'Results' });
    await form.getByRole('checkbox', { name: 'Visitors can send their result' }).check();
    await form.getByLabel('Email address').selectOption('required');
    await form.getByRole('button', { name: 'Apply results settings' }).click();
    await form.getByRole('alert').filter({ hasText: 'consentText' }).waitFor();
    await form.getByLabel('Consent text').fill('Shop Example may email me about my result.');
    await form.getByLabel('Button text (optional)').fill('Email me my BMI');
    await form.getByRole('button', { name: 'Apply results settings' }).click();
    await form.getByText('Saved: visitors can send their result.').waitFor();
    const config = await server.api('GET', '/v1/widget-config/bmi', owner.token);
    expect(config.json.config.results).toEqual({
      enabled: true,
      button: 'Email me my BMI',
      contact: { email: 'required', name: 'off' },
      consentText: 'Shop Example may email me about my result.',
    });

    const ids = [
      await submitted(owner.apiKey, 'jo@example.net'),
      await submitted(owner.apiKey, 'ann@example.net'),
      await submitted(owner.apiKey, 'sam@example.net'),
    ];
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Results' }).click();
    await page.getByRole('heading', { level: 1, name: 'Results' }).waitFor();
    const table = page.getByRole('table', { name: 'Results, newest first' });
    await table.getByText('sam@example.net').waitFor();
    expect(await table.getByRole('row').count()).toBe(4);
    expect({ violations: await seriousViolations(page) }).toEqual({ violations: [] });
    await docsScreenshot(page, 'results');

    // Filter by a visitor's email, as for their request.
    await page.getByLabel('Email').fill('ANN@example.net');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await table.getByText('sam@example.net').waitFor({ state: 'detached' });
    expect(await table.getByRole('row').count()).toBe(2);

    // One result in full.
    await page.getByRole('button', { name: `View result ${ids[1]}` }).click();
    const detail = page.getByRole('dialog', { name: `Result ${ids[1]}` });
    await detail.getByText('ann@example.net').waitFor();
    await detail.getByText('Shop Example may email me about my result.', { exact: false }).waitFor();
    expect({ violations: await seriousViolations(page) }).toEqual({ violations: [] });
    await detail.getByRole('button', { name: 'Close' }).click();
    await detail.waitFor({ state: 'hidden' });

    // Delete asks first; Cancel keeps it.
    await page.getByRole('button', { name: `Delete result ${ids[1]}` }).click();
    await page.getByRole('dialog', { name: 'Delete this result?' }).getByRole('button', { name: 'Cancel' }).click();
    expect((await server.api('GET', `/v1/results/${ids[1]}`, owner.token)).status).toBe(200);
    await page.getByRole('button', { name: `Delete result ${ids[1]}` }).click();
    await page.getByRole('dialog', { name: 'Delete this result?' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText(`Result ${ids[1]} deleted.`).waitFor();
    expect((await server.api('GET', `/v1/results/${ids[1]}`, owner.token)).status).toBe(404);
    await page.getByText('No results match these filters.').waitFor();

    // The CSV export of every result (filters cleared), as the API streams it.
    await page.getByLabel('Email').fill('');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await table.getByText('sam@example.net').waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^results-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync((await download.path()) ?? '', 'utf8');
    const lines = csv.split('\r\n');
    expect(lines[0]).toStartWith('\uFEFFid,createdAt,calcId');
    expect(lines.slice(1, -1).map((line) => line.split(',')[0])).toEqual([ids[2], ids[0]]);
    await page.getByText(/CSV export downloaded/).waitFor();
    // The session token travelled in a header only.
    const token = (await pageToken(page)) ?? 'no token';
    expect(watched.urls.filter((url) => url.includes(token))).toEqual([]);

    await page.getByRole('link', { name: 'results endpoint' }).click();
    await page.getByRole('heading', { level: 1, name: 'Results endpoint' }).waitFor();
    const current = page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Results' });
    expect(await current.getAttribute('aria-current')).toBe('page');
    await context.close();
  },
  FLOW_TIMEOUT_MS,
);
