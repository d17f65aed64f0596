import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ConsoleMessage, Page } from 'playwright-core';
import { ROOT } from '../../helpers/process.ts';

const ARTIFACTS = join(ROOT, 'test-artifacts');

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
