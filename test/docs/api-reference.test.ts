import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { Browser } from 'playwright-core';
import { ERROR_STATUS } from '../../src/errors.ts';
import { listeningApp } from '../helpers/listening-app.ts';
import { testApp } from '../helpers/test-app.ts';
import { HOOK_TIMEOUT_MS } from '../helpers/timeouts.ts';
import { launchChromium } from '../helpers/chromium.ts';
import { recordPage } from '../widget/support/browser.ts';

type Operation = {
  operationId: string;
  parameters?: { example?: unknown }[];
  requestBody?: { content: Record<string, { example?: unknown }> };
  responses: Record<string, { $ref?: string; content?: Record<string, { example?: unknown; examples?: unknown }> }>;
};

async function openApiDocument() {
  using app = testApp();
  return (await app.request('GET', '/openapi.json')).json;
}

describe('/openapi.json', () => {
  test('is a valid OpenAPI 3.1 document (checked by a maintained validator)', async () => {
    const doc = await openApiDocument();
    expect(doc.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  test('every operation has examples for its parameters, body and answers; errors are shared components', async () => {
    const doc = await openApiDocument();
    const operations = Object.values(doc.paths as Record<string, Record<string, Operation>>).flatMap((ops) =>
      Object.values(ops),
    );
    expect(operations.length).toBeGreaterThan(20);
    for (const op of operations) {
      for (const parameter of op.parameters ?? []) expect(parameter.example, op.operationId).toBeDefined();
      if (op.requestBody) expect(op.requestBody.content['application/json']?.example, op.operationId).toBeDefined();
      expect(op.responses['500']?.$ref).toBe('#/components/responses/Error500');
      for (const [status, answer] of Object.entries(op.responses)) {
        const where = `${op.operationId} ${status}`;
        if (Number(status) >= 400) {
          // One shared definition per error status, never the 20 codes repeated per route.
          expect(answer.$ref, where).toBe(`#/components/responses/Error${status}`);
        } else if (answer.content) {
          expect(answer.content['application/json']?.example, where).toBeDefined();
        }
      }
    }
    // Each error code has an example under its status.
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      const shared = doc.components.responses[`Error${status}`];
      expect(shared.content['application/json'].examples[code].value.error.code).toBe(code);
    }
  });

  test('the introduction says how to get a token, with curl against this server', async () => {
    const doc = await openApiDocument();
    expect(doc.info.description).toContain('## Getting a token');
    expect(doc.info.description).toContain(`curl -s ${doc.servers[0].url}/v1/auth/login`);
  });
});

describe('/docs in a real browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  }, HOOK_TIMEOUT_MS);
  afterAll(async () => {
    await browser?.close();
  });

  test('renders every route and the token section from this server alone, within its CSP', async () => {
    await using served = listeningApp();
    const page = await browser.newPage();
    const record = recordPage(page);
    // Redoc's sidebar links to its maker with a logo from its CDN: the page's CSP must
    // stop that (and anything else from elsewhere) before it leaves the browser.
    const outside = (url: string) => !url.startsWith(served.base) && !/^(blob|data):/.test(url);
    const elsewhere: string[] = [];
    page.on('requestfinished', (request) => {
      if (outside(request.url())) elsewhere.push(request.url());
    });
    page.on('requestfailed', (request) => {
      if (outside(request.url()) && !/^(csp|net::ERR_BLOCKED_BY_CSP)$/.test(request.failure()?.errorText ?? ''))
        elsewhere.push(`${request.url()} ${request.failure()?.errorText}`);
    });
    const answer = await page.goto(`${served.base}/docs`);
    expect(answer?.headers()['content-security-policy']).toContain("default-src 'self'");
    await page.getByRole('heading', { name: 'Getting a token' }).first().waitFor({ timeout: 30_000 });
    const text = (await page.locator('body').textContent()) ?? '';
    for (const summary of ['Sign in and get a session token', 'Load a calculator', 'List active domains']) {
      expect(text).toContain(summary);
    }
    expect(elsewhere).toEqual([]);
    expect(record.pageErrors).toEqual([]);
    // The only thing the policy refuses is that logo: Redoc itself (styles, search worker) runs.
    expect(
      record.consoleErrors.filter((line) => /content security policy/i.test(line) && !line.includes('cdn.redoc.ly')),
    ).toEqual([]);
    await page.close();
  }, 60_000);
});
