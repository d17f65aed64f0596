/**
 * The Limits section and the refusals on the Usage page, in Chromium: an owner sets a cap,
 * visitors are turned away, and the page shows why; axe-core finds nothing serious.
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

async function load(apiKey: string, domain = SHOP) {
  const res = await fetch(`${suite.server.url}/v1/widget/load`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: domain },
    body: JSON.stringify({ apiKey, domain, calcId: 'bmi' }),
  });
  return ((await res.json()) as { error?: { code: string } }).error?.code ?? 'ok';
}

test(
  'set a daily cap on the Usage page, see visitors turned away by reason, clear the cap and turn register-domain off',
  async () => {
    const owner = await suite.server.app.signup(`limits-${crypto.randomUUID().slice(0, 6)}@shop.example`, PASSWORD);
    await suite.server.api('POST', '/v1/domains', owner.token, { domain: SHOP });
    const limits = async () => (await suite.server.api('GET', '/v1/account/limits', owner.token)).json.limits;
    const { context, watched } = await dashboardContext(suite.browser);
    const page = await context.newPage();
    await page.goto(`${suite.server.url}/dashboard/usage`);
    await signIn(page, owner.email);
    await page.getByRole('heading', { level: 2, name: 'Limits' }).waitFor();
    expect(await page.getByLabel('Loads a day', { exact: true }).inputValue()).toBe('');
    expect(await page.getByLabel('Pages may ask to be added to my domains').isChecked()).toBe(true);

    await page.getByLabel('Loads a day', { exact: true }).fill('2');
    await page.getByLabel('Webhook pulls a second').fill('5');
    await page.getByRole('button', { name: 'Save limits' }).click();
    await page.getByText('Limits saved').waitFor();
    expect(await limits()).toEqual({
      loadsPerDay: 2,
      loadsPerDayPerDomain: null,
      pullsPerSecond: 5,
      registerDomain: true,
    });

    // Visitors: two served, then the cap; one page not on the list.
    expect([await load(owner.apiKey), await load(owner.apiKey), await load(owner.apiKey)]).toEqual([
      'ok',
      'ok',
      'cap_reached',
    ]);
    expect(await load(owner.apiKey, 'https://elsewhere.example')).toBe('domain_not_registered');
    await page.reload();
    const refused = page.getByRole('table', { name: 'Widget calls refused, by reason' });
    await refused.waitFor();
    const rows = await refused.locator('tbody tr').allInnerTexts();
    expect(rows.map((row) => row.split('\t').map((cell) => cell.trim()))).toEqual([
      ['cap_reached', 'over one of your daily caps (Limits, below)', '1'],
      ['domain_not_registered', 'the page is not on your domain list', '1'],
    ]);
    // What was saved is what the form shows after a reload.
    expect(await page.getByLabel('Loads a day', { exact: true }).inputValue()).toBe('2');
    expect(await seriousViolations(page)).toEqual([]);
    await docsScreenshot(page, 'usage-limits');

    // A cap below 1 is not sent: the field says why, nothing changes.
    const perDomain = page.getByLabel('Loads a day per domain');
    await perDomain.fill('0');
    await page.getByRole('button', { name: 'Save limits' }).click();
    expect(await perDomain.evaluate((input) => (input as HTMLInputElement).validity.rangeUnderflow)).toBe(true);
    expect((await limits()).loadsPerDayPerDomain).toBeNull();

    // An empty field clears its cap; the box turns register-domain off.
    await page.getByLabel('Loads a day per domain').fill('');
    await page.getByLabel('Loads a day', { exact: true }).fill('');
    await page.getByLabel('Pages may ask to be added to my domains').uncheck();
    await page.getByRole('button', { name: 'Save limits' }).click();
    await page.getByText('Limits saved').waitFor();
    expect(await limits()).toEqual({
      loadsPerDay: null,
      loadsPerDayPerDomain: null,
      pullsPerSecond: 5,
      registerDomain: false,
    });
    expect(await load(owner.apiKey)).toBe('ok');
    expect(await seriousViolations(page)).toEqual([]);
    expectOnlyLocal(watched, suite.server.url);
    expect(watched.violations).toEqual([]);
    await context.close();
  },
  FLOW_TIMEOUT_MS,
);
