/**
 * The dashboard end to end in Chromium: controls found by their accessible names, every
 * action checked against the server's own answers.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { packLanguages } from '../../widget/build/packs.ts';
import { HOOK_TIMEOUT_MS } from '../helpers/timeouts.ts';
import { startTarget, type TargetServer } from '../helpers/webhook-target.ts';
import {
  dashboardContext,
  docsScreenshot,
  expectOnlyLocal,
  pageToken,
  FLOW_TIMEOUT_MS,
  PASSWORD,
  signIn,
  startDashboard,
  useDashboard,
} from './support/dashboard.ts';

const suite = useDashboard({ flags: { 'quota-free': 10 }, env: { CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.2/32' } });
let target: TargetServer;

beforeAll(() => {
  target = startTarget('127.0.0.2', () => Response.json({ weightKg: 82, colour: 'blue' }));
});

afterAll(async () => {
  await target?.stop();
}, HOOK_TIMEOUT_MS);

let counter = 0;
const newEmail = () => `owner${++counter}-${crypto.randomUUID().slice(0, 6)}@shop.example`;

async function open(path: string, options: { width?: number; colorScheme?: 'light' | 'dark' } = {}) {
  const { context, watched } = await dashboardContext(suite.browser, options);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.server.url });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${suite.server.url}${path}`);
  return { context, page, watched, errors };
}

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name });

test(
  'create an account, then a deep link signed out shows sign-in and returns to the page asked for',
  async () => {
    const email = newEmail();
    const { context, page, watched, errors } = await open('/dashboard');
    await docsScreenshot(page, 'sign-in');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await heading(page, 'Overview').waitFor();
    // The account really exists: the same credentials sign in through the API.
    const login = await fetch(`${suite.server.url}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    expect(login.status).toBe(200);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await pageToken(page)).toBeNull();

    await page.goto(`${suite.server.url}/dashboard/calculators/bmi`);
    await signIn(page, email);
    await heading(page, 'Body Mass Index (BMI)').waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/calculators/bmi');

    // The token is in sessionStorage only: no cookie, no localStorage, no URL.
    const token = await pageToken(page);
    expect(token).toMatch(/^ey/);
    expect(await context.cookies()).toEqual([]);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    expect(watched.urls.some((url) => url.includes(token ?? 'none'))).toBe(false);
    expectOnlyLocal(watched, suite.server.url);
    expect(watched.violations).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  },
  FLOW_TIMEOUT_MS,
);

test(
  'with sign-up disabled the form offers no "Create account"',
  async () => {
    const closed = startDashboard({ flags: { 'disable-signup': true } });
    try {
      const { context } = await dashboardContext(suite.browser);
      const page = await context.newPage();
      await page.goto(`${closed.url}/dashboard`);
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      expect(await page.getByRole('button', { name: 'Create account' }).count()).toBe(0);
      await context.close();
    } finally {
      await closed.stop();
    }
  },
  FLOW_TIMEOUT_MS,
);

test(
  'a wrong password shows the server message and signs nobody in',
  async () => {
    const owner = await suite.server.app.signup(newEmail(), PASSWORD);
    const { context, page } = await open('/dashboard/domains');
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password', { exact: true }).fill('not the password at all');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /password/i })
      .waitFor();
    expect(await pageToken(page)).toBeNull();
    await context.close();
  },
  FLOW_TIMEOUT_MS,
);

test(
  'an expired session anywhere returns to sign-in with a message, then to the same page',
  async () => {
    const owner = await suite.server.app.signup(newEmail(), PASSWORD);
    const { context, page } = await open('/dashboard/domains');
    await signIn(page, owner.email);
    await heading(page, 'Domains').waitFor();
    suite.server.advance(8 * 24 * 3600 * 1000);
    try {
      await page.getByLabel('Origin').fill('https://late.example');
      await page.getByRole('button', { name: 'Add' }).click();
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      await page
        .getByText(/Sign in again|expired|invalid/i)
        .first()
        .waitFor();
      await signIn(page, owner.email);
      await heading(page, 'Domains').waitFor();
      expect(new URL(page.url()).pathname).toBe('/dashboard/domains');
    } finally {
      suite.server.advance(-8 * 24 * 3600 * 1000);
    }
    await context.close();
  },
  FLOW_TIMEOUT_MS,
);

test(
  'overview: plan, "N of M loads" meter with the 80 % and 100 % warnings, copy and confirmed key rotation',
  async () => {
    const owner = await suite.server.app.signup(newEmail(), PASSWORD);
    await suite.server.api('POST', '/v1/domains', owner.token, { domain: 'https://shop.example' });
    const load = () =>
      fetch(`${suite.server.url}/v1/widget/load`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apiKey: owner.apiKey, domain: 'https://shop.example', calcId: 'bmi' }),
      });
    for (let i = 0; i < 8; i++) expect((await load()).status).toBe(200);

    const { context, page } = await open('/dashboard');
    await signIn(page, owner.email);
    await page.getByText('Free', { exact: true }).waitFor();
    await page.getByText('8 of 10 loads').waitFor();
    expect(await page.getByRole('meter').getAttribute('aria-valuetext')).toBe('8 of 10 loads');
    await page.getByText('Warning:').waitFor();
    // The daily chart's table alternative holds today's 8 loads.
    await page.getByText('Daily loads as a table').click();
    const today = new Date().toISOString().slice(0, 10);
    await page.getByRole('row', { name: new RegExp(`${today} 8`) }).waitFor();
    await docsScreenshot(page, 'overview');

    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await page.getByText('API key copied.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(owner.apiKey);

    await page.getByRole('button', { name: 'Rotate key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rotate the API key?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await suite.server.api('GET', '/v1/account', owner.token)).json.account.apiKey).toBe(owner.apiKey);
    await page.getByRole('button', { name: 'Rotate key' }).click();
    await dialog.getByRole('button', { name: 'Rotate' }).click();
    await page.getByText('New API key created.', { exact: false }).waitFor();
    const rotated = (await suite.server.api('GET', '/v1/account', owner.token)).json.account.apiKey;
    expect(rotated).not.toBe(owner.apiKey);
    await page.getByText(rotated).waitFor();
    expect((await load()).status).toBe(401);

    // Two more loads with the new key reach the quota.
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${suite.server.url}/v1/widget/load`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apiKey: rotated, domain: 'https://shop.example', calcId: 'bmi' }),
      });
      expect(res.status).toBe(200);
    }
    await page.reload();
    await page.getByText('10 of 10 loads').waitFor();
    await page.getByText('Quota reached:').waitFor();
    await context.close();
  },
  FLOW_TIMEOUT_MS,
);

test(
  'domains: add, server messages, approve a pending request, wildcard tester, remove with confirmation',
  async () => {
    const owner = await suite.server.app.signup(newEmail(), PASSWORD);
    const { context, page } = await open('/dashboard/domains');
    await signIn(page, owner.email);
    await page.getByLabel('Origin').fill('https://*.shop.example');
    await page.getByRole('button', { name: 'Add' }).click();
    await page.getByText('https://*.shop.example is active.').waitFor();
    await page.getByLabel('Origin').fill('ftp://nope');
    await page.getByRole('button', { name: 'Add' }).click();
    await page.getByRole('alert').filter({ hasText: 'http:// or https://' }).waitFor();

    const asked = await fetch(`${suite.server.url}/v1/widget/register-domain`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: owner.apiKey, domain: 'https://blog.example' }),
    });
    expect(asked.status).toBe(202);
    await page.reload();
    await page.getByRole('row', { name: /blog\.example.*Pending approval/ }).waitFor();

    await page.getByLabel('Page address').fill('https://a.b.shop.example/page');
    await page.getByRole('button', { name: 'Check' }).click();
    await page.getByText('Yes: https://a.b.shop.example matches https://*.shop.example.').waitFor();
    await page.getByLabel('Page address').fill('https://shop.example');
    await page.getByRole('button', { name: 'Check' }).click();
    await page.getByText('No: https://shop.example matches none of your domains.').waitFor();
    await docsScreenshot(page, 'domains');

    await page.getByRole('button', { name: 'Approve https://blog.example' }).click();
    await page.getByText('https://blog.example is active.').waitFor();
    const listed = (await suite.server.api('GET', '/v1/domains', owner.token)).json.domains;
    expect(listed.map((d: { domain: string; status: string }) => `${d.domain} ${d.status}`).sort()).toEqual([
      'https://*.shop.example active',
      'https://blog.example active',
    ]);

    await page.getByRole('button', { name: 'Remove https://blog.example' }).click();
    await page
      .getByRole('dialog', { name: 'Remove https://blog.example?' })
      .getByRole('button', { name: 'Remove' })
      .click();
    await page.getByText('https://blog.example is removed.').waitFor();
    const after = (await suite.server.api('GET', '/v1/domains', owner.token)).json.domains;
    expect(after.map((d: { domain: string }) => d.domain)).toEqual(['https://*.shop.example']);
    await context.close();
  },
  FLOW_TIMEOUT_MS,
);

test(
  'calculators: catalogue, snippet options, live preview; Free cannot save a webhook',
  async () => {
    const owner = await suite.server.app.signup(newEmail(), PASSWORD);
    const { context, page } = await open('/dashboard/calculators');
    await signIn(page, owner.email);
    const catalogue = (await (await fetch(`${suite.server.url}/v1/calculators`)).json()).calculators as {
      title: string;
    }[];
    for (const calculator of catalogue) await page.getByRole('link', { name: calculator.title }).waitFor();
    await page.getByRole('link', { name: 'Loan' }).first().click();
    await heading(page, catalogue.find((c) => c.title.startsWith('Loan'))?.title ?? 'Loan').waitFor();
    await page.getByLabel('Theme').selectOption('dark');
    // A locale for each language the widget speaks: English (US and UK units), then every pack's.
    const locales = await page
      .getByLabel('Locale')
      .locator('option')
      .evaluateAll((options) =>
        options.map((option) => (option as HTMLOptionElement).value).filter((value) => value !== ''),
      );
    expect(locales.slice(0, 2)).toEqual(['en-US', 'en-GB']);
    expect(locales.slice(2).map((locale) => locale.split('-')[0])).toEqual(packLanguages());
    await page.getByLabel('Locale').selectOption('de-DE');
    await page.getByLabel('Currency').fill('eur');
    const snippet = await page.locator('#snippet').textContent();
    expect(snippet).toContain(`data-api-key="${owner.apiKey}"`);
    expect(snippet).toContain('data-theme="dark" data-locale="de-DE" data-currency="EUR"');
    // The preview places the currency as Intl does for the locale (not a code after the number).
    const amount = page.locator('.preview-field', { hasText: 'Loan amount' }).locator('dd');
    await amount.filter({ hasText: '€' }).waitFor();
    expect(await amount.textContent()).toContain('20.000,00\u00a0€');
    expect(await amount.textContent()).not.toContain('EUR');
    const { publicUrl } = (await suite.server.api('GET', '/v1/account', owner.token)).json;
    expect(snippet).toStartWith(`<script src="${publicUrl}/widget.js" async></script>`);
    await page.getByRole('button', { name: 'Copy snippet' }).click();
    await page.getByText('Snippet copied.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(snippet ?? '');

    await page.getByRole('link', { name: 'Calculators' }).first().click();
    await page.getByRole('link', { name: 'Body Mass Index (BMI)' }).click();
    await page.getByLabel('Units').selectOption('imperial');
    expect(await page.locator('#snippet').textContent()).toContain('data-units="imperial"');
    await page.getByText('154 lb').waitFor();
    await page.locator('.preview-result').getByText('22.7 kg/m²').waitFor();
    await page.getByText(/Extra.*50 USD per month/).waitFor();
    await page.getByLabel('Webhook URL').fill(target.url('/prefill'));
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').filter({ hasText: 'Extra plan' }).waitFor();
    expect((await suite.server.api('GET', '/v1/widget-config/bmi', owner.token)).json.config).toEqual({});
    // Not one load was counted by the previews.
    expect((await suite.server.api('GET', '/v1/account', owner.token)).json.usage.used).toBe(0);
    await context.close();
  },
  FLOW_TIMEOUT_MS,
);

test(
  'webhook on Extra: write-only header values, test outcome, last outcome, live preview, remove',
  async () => {
    const owner = await suite.server.app.signup(newEmail(), PASSWORD);
    await suite.server.app.accounts.setPlan(owner.id, 'extra');
    const { context, page } = await open('/dashboard/calculators/bmi');
    await signIn(page, owner.email);
    await page.getByLabel('Webhook URL').fill(target.url('/prefill'));
    await page.getByRole('button', { name: 'Add header' }).click();
    await page.getByLabel('Header name 1').fill('Authorization');
    await page.getByLabel('Header value 1').fill('Bearer s3cr3t');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Webhook saved.').waitFor();
    const saved = (await suite.server.api('GET', '/v1/widget-config/bmi', owner.token)).json;
    expect(saved.config.webhook).toEqual({ url: target.url('/prefill'), headers: { Authorization: '<redacted>' } });

    // Reloaded, the form waits for the saved webhook (nothing typed earlier can be
    // overwritten by it); the stored value is shown as "(stored)" and never sent to the browser.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/v1/widget-config/bmi', async (route) => {
      if (route.request().method() === 'GET') await held;
      await route.continue();
    });
    await page.reload();
    await page.getByText('Loading the saved webhook…').waitFor();
    expect(await page.getByLabel('Webhook URL').count()).toBe(0);
    release();
    expect(await page.getByLabel('Webhook URL').inputValue()).toBe(target.url('/prefill'));
    const value = page.getByLabel('Header value 1 (stored)');
    expect(await value.getAttribute('placeholder')).toBe('(stored)');
    expect(await value.inputValue()).toBe('');
    expect(await page.content()).not.toContain('s3cr3t');

    // Saving again without touching it keeps the stored value: the target still receives it.
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Webhook saved.').waitFor();
    const before = target.hits;
    await page.getByRole('button', { name: 'Test webhook' }).click();
    await page.getByText('Test finished: ok.').waitFor();
    // (The preview's refresh after saving pulls too.)
    expect(target.hits).toBeGreaterThan(before);
    expect(target.requests.at(-1)?.headers.authorization).toBe('Bearer s3cr3t');
    const result = page.getByRole('region', { name: 'Test result' });
    await result.getByText('weightKg').waitFor();
    await result.getByText('colour').waitFor();
    await result.getByText('200').waitFor();
    await page.locator('.last-outcome').getByText('ok').waitFor();

    await page.getByRole('button', { name: 'Refresh preview' }).click();
    await page.getByText('from your webhook').waitFor();
    // The widget's own model and formula: 82 kg from the webhook, 175 cm by default.
    await page.locator('.preview-result').getByText('26.8 kg/m²').waitFor();
    await docsScreenshot(page, 'calculator');

    await page.getByRole('button', { name: 'Remove webhook' }).click();
    await page.getByText('Webhook removed.').waitFor();
    expect((await suite.server.api('GET', '/v1/widget-config/bmi', owner.token)).json.config).toEqual({});
    await context.close();
  },
  FLOW_TIMEOUT_MS,
);

test(
  "the builder's preview: an unpublished draft pre-filled by the webhook, as a visitor's widget would be; never a load",
  async () => {
    const owner = await suite.server.app.signup(newEmail(), PASSWORD);
    await suite.server.app.accounts.setPlan(owner.id, 'extra');
    const created = await suite.server.api('POST', '/v1/account/calculators', owner.token, {
      from: 'bmi',
      id: 'gym-bmi',
    });
    expect(created.status).toBe(201);
    const saved = await suite.server.api('PUT', '/v1/widget-config/gym-bmi', owner.token, {
      config: { webhook: { url: target.url('/prefill') } },
    });
    expect(saved.status).toBe(200);
    const before = target.hits;
    const { context, page } = await open('/dashboard/calculators/gym-bmi/edit');
    await signIn(page, owner.email);
    await page.getByRole('heading', { level: 1, name: /^Edit / }).waitFor();
    // The draft's own formula over 82 kg from the webhook and 175 cm by default.
    await page.locator('.widget-preview').getByText('26.8', { exact: false }).first().waitFor();
    expect(target.hits).toBeGreaterThan(before);
    // Asked again on demand: one more pull.
    const pulled = target.hits;
    await page.getByRole('button', { name: 'Pull pre-fill again' }).click();
    for (const deadline = Date.now() + 10_000; target.hits === pulled && Date.now() < deadline; ) await Bun.sleep(20);
    expect(target.hits).toBeGreaterThan(pulled);
    const account = (await suite.server.api('GET', '/v1/account', owner.token)).json;
    expect(account.usage.used).toBe(0);
    await context.close();
  },
  FLOW_TIMEOUT_MS,
);
