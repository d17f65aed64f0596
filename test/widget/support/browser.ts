import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type ConsoleMessage, type Page } from 'playwright-core';
import { ROOT } from '../../helpers/process.ts';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = join(ROOT, 'test-artifacts');

/** Headless Debian Chromium; fails (never skips) when it is not installed. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing: the widget tests need a real browser. Install Debian chromium: apt-get install -y chromium`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    // Without the background-networking flags this machine's closed network refuses connections.
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

/** What a page reports that a test must see: uncaught errors, warnings, CSP trouble. */
export interface PageRecord {
  pageErrors: Error[];
  warnings: string[];
  consoleErrors: string[];
}

export function recordPage(page: Page): PageRecord {
  const record: PageRecord = { pageErrors: [], warnings: [], consoleErrors: [] };
  page.on('pageerror', (error) => record.pageErrors.push(error));
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'warning') record.warnings.push(message.text());
    if (message.type() === 'error') record.consoleErrors.push(message.text());
  });
  return record;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}
