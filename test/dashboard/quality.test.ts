/**
 * The dashboard's quality bar in Chromium: axe-core on every page at 1280 and 375 px,
 * keyboard-only use, the system colour scheme, the usage page and the account page.
 */
import { beforeAll, expect, test } from 'bun:test';
import { roofQuote } from '../fixtures/roof-quote.ts';
import { HOOK_TIMEOUT_MS } from '../helpers/timeouts.ts';
import {
  dashboardContext,
  seriousViolations,
  docsScreenshot,
  expectOnlyLocal,
  FLOW_TIMEOUT_MS,
  PASSWORD,
  signIn,
  useDashboard,
  type DashboardServer,
} from './support/dashboard.ts';

const suite = useDashboard();
let owner: Awaited<ReturnType<DashboardServer['app']['signup']>>;

beforeAll(async () => {
  owner = await suite.server.app.signup(`quality-${crypto.randomUUID().slice(0, 6)}@shop.example`, PASSWORD);
  // Something on every page: domains (one pending), loads on two calculators from two sites, a refusal.
  for (const domain of ['https://shop.example', 'https://*.blog.example'])
    await suite.server.api('POST', '/v1/domains', owner.token, { domain });
  await fetch(`${suite.server.url}/v1/widget/register-domain`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiKey: owner.apiKey, domain: 'https://new.example' }),
  });
  for (const [domain, calcId, times] of [
    ['https://shop.example', 'bmi', 3],
    ['https://a.blog.example', 'loan', 2],
  ] as const) {
    for (let i = 0; i < times; i++) {
      const res = await fetch(`${suite.server.url}/v1/widget/load`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apiKey: owner.apiKey, domain, calcId }),
      });
      expect(res.status).toBe(200);
    }
  }
  // A visitor turned away: the usage page lists it by reason.
  const refused = await fetch(`${suite.server.url}/v1/widget/load`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiKey: owner.apiKey, domain: 'https://elsewhere.example', calcId: 'bmi' }),
  });
  expect(refused.status).toBe(403);
  // A calculator of the owner's own, for the builder's pages.
  const created = await suite.server.api('POST', '/v1/account/calculators', owner.token, { definition: roofQuote() });
  expect(created.status).toBe(201);
}, HOOK_TIMEOUT_MS);

const PAGES: { path: string; title: string }[] = [
  { path: '/dashboard', title: 'Overview' },
  { path: '/dashboard/domains', title: 'Domains' },
  { path: '/dashboard/calculators', title: 'Calculators' },
  { path: '/dashboard/calculators/bmi', title: 'Body Mass Index (BMI)' },
  { path: '/dashboard/usage', title: 'Usage' },
  { path: '/dashboard/account', title: 'Account' },
  { path: '/dashboard/results/endpoint', title: 'Results endpoint' },
  { path: '/dashboard/calculators/roof-quote', title: 'Roof quote' },
  { path: '/dashboard/calculators/roof-quote/edit', title: 'Edit Roof quote' },
  { path: '/dashboard/results', title: 'Results' },
];

for (const width of [1280, 375]) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(
      `axe-core: no serious or critical violation on any page at ${width} px (${colorScheme})`,
      async () => {
        const { context, watched } = await dashboardContext(suite.browser, { width, colorScheme });
        const page = await context.newPage();
        await page.goto(`${suite.server.url}/dashboard`);
        await page.getByRole('button', { name: 'Sign in' }).waitFor();
        expect(await seriousViolations(page)).toEqual([]);
        await signIn(page, owner.email);
        for (const { path, title } of PAGES) {
          await page.goto(`${suite.server.url}${path}`);
          await page.getByRole('heading', { level: 1, name: title }).waitFor();
          // Wait for the page's data, not for time.
          await page.waitForFunction(() => document.querySelectorAll('main .card, main table, main li').length > 0);
          expect({ path, violations: await seriousViolations(page) }).toEqual({ path, violations: [] });
          // Nothing wider than the window: no sideways scrolling of the page itself.
          expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
          if (width === 375 && colorScheme === 'light' && path === '/dashboard')
            await docsScreenshot(page, 'overview-375');
          if (width === 1280 && colorScheme === 'dark' && path === '/dashboard/usage')
            await docsScreenshot(page, 'usage-dark');
        }
        expectOnlyLocal(watched, suite.server.url);
        expect(watched.violations).toEqual([]);
        await context.close();
      },
      FLOW_TIMEOUT_MS,
    );
  }
}

test(
  'follows prefers-color-scheme',
  async () => {
    const backgrounds: string[] = [];
    for (const colorScheme of ['light', 'dark'] as const) {
      const { context } = await dashboardContext(suite.browser, { colorScheme });
      const page = await context.newPage();
      await page.goto(`${suite.server.url}/dashboard`);
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      backgrounds.push(await page.evaluate(() => getComputedStyle(document.body).backgroundColor));
      await context.close();
    }
    expect(backgrounds[0]).toBe('rgb(246, 247, 249)');
    expect(backgrounds[1]).toBe('rgb(17, 20, 24)');
  },
  FLOW_TIMEOUT_MS,
);

test(
  'keyboard only: sign in, move between pages, add a domain, rotate the key through its dialog',
  async () => {
    const { context } = await dashboardContext(suite.browser);
    const page = await context.newPage();
    await page.goto(`${suite.server.url}/dashboard`);
    const focused = () =>
      page.evaluate(() => document.activeElement?.getAttribute('id') ?? document.activeElement?.textContent);
    // The email field has focus on arrival.
    expect(await focused()).toBe('email');
    await page.keyboard.type(owner.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();

    // Tab to the Domains link and follow it: focus lands on the new page's heading.
    for (let i = 0; i < 20 && (await focused()) !== 'Domains'; i++) await page.keyboard.press('Tab');
    expect(await focused()).toBe('Domains');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Domains' }).waitFor();
    // Focus moves to the new page's heading once it has rendered.
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
    for (let i = 0; i < 10 && (await focused()) !== 'origin'; i++) await page.keyboard.press('Tab');
    expect(await focused()).toBe('origin');
    await page.keyboard.type('https://keys.example');
    await page.keyboard.press('Enter');
    await page.getByText('https://keys.example is active.').waitFor();
    const domains = (await suite.server.api('GET', '/v1/domains', owner.token)).json.domains as { domain: string }[];
    expect(domains.some((d) => d.domain === 'https://keys.example')).toBe(true);

    await page.goto(`${suite.server.url}/dashboard`);
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    for (let i = 0; i < 25 && (await focused()) !== 'Rotate key'; i++) await page.keyboard.press('Tab');
    expect(await focused()).toBe('Rotate key');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Rotate the API key?' });
    await dialog.waitFor();
    // Escape closes it and nothing changes; focus returns to the button.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await focused()).toBe('Rotate key');
    const key = (await suite.server.api('GET', '/v1/account', owner.token)).json.account.apiKey;
    expect(key).toBe(owner.apiKey);
    await context.close();
  },
  FLOW_TIMEOUT_MS,
);

test(
  'usage: chart and table by day, calculator and domain for a chosen range',
  async () => {
    const { context } = await dashboardContext(suite.browser);
    const page = await context.newPage();
    await page.goto(`${suite.server.url}/dashboard/usage`);
    await signIn(page, owner.email);
    const today = new Date().toISOString().slice(0, 10);
    await page.getByText(/5 loads from/).waitFor();
    await page.getByText('Loads per day as a table').click();
    await page.getByRole('row', { name: new RegExp(`${today} 5`) }).waitFor();

    await page.getByLabel('Group by').selectOption('calculator');
    const byCalculator = page.getByRole('table', { name: 'Loads by calculator' });
    await byCalculator.getByRole('row', { name: 'bmi 3' }).waitFor();
    await byCalculator.getByRole('row', { name: 'loan 2' }).waitFor();
    await page.getByLabel('Group by').selectOption('domain');
    const byDomain = page.getByRole('table', { name: 'Loads by domain' });
    await byDomain.getByRole('row', { name: 'https://shop.example 3' }).waitFor();
    await byDomain.getByRole('row', { name: 'https://a.blog.example 2' }).waitFor();
    await page.locator('.chart canvas').waitFor();
    expect(await page.locator('.chart canvas').count()).toBe(1);
    await docsScreenshot(page, 'usage');

    // A range without today shows nothing, as the API says.
    const report = (await suite.server.api('GET', '/v1/usage?from=2025-01-01&to=2025-01-31', owner.token)).json;
    expect(report.total).toBe(0);
    await page.getByLabel('From', { exact: true }).fill('2025-01-01');
    await page.getByLabel('To', { exact: true }).fill('2025-01-31');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByText('0 loads from 2025-01-01 to 2025-01-31').waitFor();
    // A range the server refuses shows its message.
    await page.getByLabel('From', { exact: true }).fill('2023-01-01');
    await page.getByRole('button', { name: 'Show' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /366|days/ })
      .waitFor();
    await context.close();
  },
  FLOW_TIMEOUT_MS,
);

test(
  'account: the signing secret is hidden until revealed and rotates after confirmation',
  async () => {
    const { context } = await dashboardContext(suite.browser);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.server.url });
    const page = await context.newPage();
    await page.goto(`${suite.server.url}/dashboard/account`);
    await signIn(page, owner.email);
    const secret = async () =>
      (await suite.server.api('POST', '/v1/account/signing-secret/reveal', owner.token, { password: PASSWORD })).json;
    const first = await secret();
    await page.getByRole('button', { name: 'Reveal secret' }).waitFor();
    expect(await page.locator('main').textContent()).not.toContain(first.signingSecret);
    await page.getByRole('button', { name: 'Reveal secret' }).click();
    await page.getByText(first.signingSecret).waitFor();
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rotate the signing secret?' });
    await dialog.getByLabel('Password').fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Rotate' }).click();
    await page.getByText('New signing secret created').waitFor();
    const second = await secret();
    expect(second.signingSecret).not.toBe(first.signingSecret);
    expect(second.previousValidUntil).not.toBeNull();
    await page.getByText(second.signingSecret).waitFor();
    await page.getByText(/previous secret stays valid until/).waitFor();
    await docsScreenshot(page, 'account');
    await context.close();
  },
  FLOW_TIMEOUT_MS,
);
