/**
 * The real app listening on 127.0.0.1 for the dashboard's browser tests, with an
 * adjustable clock (token expiry without waiting), and helpers that read the server's
 * own answers so a test can check what the page did.
 */
import { afterAll, beforeAll, expect } from 'bun:test';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../../helpers/chromium.ts';
import { ROOT } from '../../helpers/process.ts';
import { testApp, type TestApp } from '../../helpers/test-app.ts';
import { HOOK_TIMEOUT_MS } from '../../helpers/timeouts.ts';
import type { ServeFlags } from '../../../src/config.ts';
import { screenshot } from '../../widget/support/browser.ts';

export const PASSWORD = 'correct horse battery';

/** A flow through several pages in a browser on a busy 2-core machine (bun's default is 5 s). */
export const FLOW_TIMEOUT_MS = 120_000;

export interface DashboardServer {
  app: TestApp;
  url: string;
  /** Moves the server's clock forward. */
  advance(ms: number): void;
  api(method: string, path: string, token: string, body?: unknown): Promise<{ status: number; json: any }>;
  stop(): Promise<void>;
}

type DashboardOptions = { flags?: ServeFlags; env?: Record<string, string> };

export function startDashboard(options: DashboardOptions = {}): DashboardServer {
  let offset = 0;
  const app = testApp({ flags: options.flags, env: options.env, now: () => new Date(Date.now() + offset) });
  app.app.listen({ hostname: '127.0.0.1', port: 0 });
  const port = app.app.server?.port;
  if (!port) throw new Error('the server did not start');
  const url = `http://127.0.0.1:${port}`;
  return {
    app,
    url,
    advance(ms) {
      offset += ms;
    },
    async api(method, path, token, body) {
      const res = await fetch(`${url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, json: await res.json() };
    },
    async stop() {
      await app.app.stop(true);
      app[Symbol.dispose]();
    },
  };
}

/** Every request the page makes, and every policy violation it reports. */
export interface DashboardSuite {
  readonly server: DashboardServer;
  readonly browser: Browser;
}

/** Registers the hooks every dashboard suite shares: the server and a browser for the whole file. */
export function useDashboard(options: DashboardOptions = {}): DashboardSuite {
  let server: DashboardServer;
  let browser: Browser;
  beforeAll(async () => {
    server = startDashboard(options);
    browser = await launchChromium();
  }, HOOK_TIMEOUT_MS);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  }, HOOK_TIMEOUT_MS);
  return {
    get server() {
      return server;
    },
    get browser() {
      return browser;
    },
  };
}

export interface Watched {
  urls: string[];
  violations: string[];
}

export async function dashboardContext(
  browser: Browser,
  options: { width?: number; colorScheme?: 'light' | 'dark' } = {},
): Promise<{ context: BrowserContext; watched: Watched }> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: 900 },
    colorScheme: options.colorScheme ?? 'light',
  });
  const watched: Watched = { urls: [], violations: [] };
  context.on('request', (request) => watched.urls.push(request.url()));
  context.on('console', (message) => {
    if (/Content[- ]Security[- ]Policy/i.test(message.text())) watched.violations.push(message.text());
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      console.error(`Content-Security-Policy violation: ${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  return { context, watched };
}

export async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
}

/** The token the page holds, from sessionStorage (the only place it may be). */
export const pageToken = (page: Page): Promise<string | null> =>
  page.evaluate(() => sessionStorage.getItem('calc.token'));

/**
 * A screenshot for docs/dashboard.md: always in test-artifacts/, and into docs/images/ when
 * CALC_DOCS_SCREENSHOTS=1 (its accounts and keys are random, so every run would change it).
 */
export async function docsScreenshot(page: Page, name: string, view: 'page' | 'window' = 'page'): Promise<void> {
  // 'window': what the window shows (a long page at the part that matters), not the whole page.
  if (view === 'window') await page.screenshot({ path: join(ROOT, 'test-artifacts', `dashboard-${name}.png`) });
  else await screenshot(page, `dashboard-${name}`);
  if (process.env.CALC_DOCS_SCREENSHOTS === '1') {
    const dir = join(ROOT, 'docs', 'images');
    mkdirSync(dir, { recursive: true });
    copyFileSync(join(ROOT, 'test-artifacts', `dashboard-${name}.png`), join(dir, `dashboard-${name}.png`));
  }
}

/** Requests left only for the server under test. */
export function expectOnlyLocal(watched: Watched, url: string): void {
  const others = watched.urls.filter((seen) => !seen.startsWith(`${url}/`) && !seen.startsWith('data:'));
  expect(others).toEqual([]);
}

interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: { target: string[] }[];
}

let axeSource: Promise<string> | undefined;

/** axe-core's serious and critical findings on the page, run through the DevTools protocol (the page's policy rightly forbids inline scripts). */
export async function seriousViolations(page: Page): Promise<string[]> {
  axeSource ??= Bun.file(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js')).text();
  await page.evaluate(await axeSource);
  const violations = (await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document): Promise<{ violations: unknown[] }> } }).axe;
    return (await axe.run(document)).violations;
  })) as AxeViolation[];
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}
