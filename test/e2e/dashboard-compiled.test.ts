/**
 * The dashboard as the compiled executable serves it (minified, embedded): `serve --demo`
 * prints its address with the demo credentials, and signing in with them in Chromium works.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import type { Browser } from 'playwright-core';
import { DASHBOARD_CSP } from '../../src/modules/dashboard/index.ts';
import { ensureCompiled, startServe } from '../helpers/process.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { HOOK_TIMEOUT_MS } from '../helpers/timeouts.ts';
import { launchChromium } from '../helpers/chromium.ts';
import { dashboardContext, expectOnlyLocal, FLOW_TIMEOUT_MS, signIn } from '../dashboard/support/dashboard.ts';

let calc: string;
let browser: Browser;
beforeAll(async () => {
  calc = await ensureCompiled();
  browser = await launchChromium();
}, 180_000);
afterAll(() => browser?.close(), HOOK_TIMEOUT_MS);

test(
  'serve --demo prints the dashboard address and credentials that sign in there',
  async () => {
    using dir = tempDir();
    await using server = await startServe([calc], ['--data', dir.path, '--demo']);
    // The listening line arrives with the demo lines in one write.
    const printed = server.stdout();
    const dashboardLine = /^Dashboard: (\S+) \(sign in with (\S+) and the password above\)$/m.exec(printed);
    expect(dashboardLine?.[1]).toBe(`${server.url}/dashboard`);
    const password = /^ {2}password: (\S+)$/m.exec(printed)?.[1];
    expect(password).toBeDefined();

    const html = await fetch(`${server.url}/dashboard/usage`);
    expect(html.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
    expect(html.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await (await fetch(`${server.url}/`)).text()).toContain('href="/dashboard"');

    const { context, watched } = await dashboardContext(browser);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${server.url}/dashboard/domains`);
    await signIn(page, dashboardLine?.[2] ?? '', password);
    await page.getByRole('heading', { level: 1, name: 'Domains' }).waitFor();
    await page
      .getByRole('row', { name: /Active/ })
      .first()
      .waitFor();
    await page.getByRole('link', { name: 'Overview' }).click();
    await page.getByText('Extra', { exact: true }).waitFor();
    await page.getByText(/of 1,000,000 loads/).waitFor();
    expect(errors).toEqual([]);
    expect(watched.violations).toEqual([]);
    expectOnlyLocal(watched, server.url);
    await context.close();
  },
  FLOW_TIMEOUT_MS,
);
