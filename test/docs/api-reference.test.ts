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
  security?: Record<string, string[]>[];
  'x-codeSamples'?: { lang: string; label: string; source: string }[];
  parameters?: { name: string; in: string; example?: unknown }[];
  requestBody?: { content: Record<string, { example?: unknown }> };
  responses: Record<string, { $ref?: string; content?: Record<string, { example?: unknown; examples?: unknown }> }>;
};

async function openApiDocument() {
  using app = testApp();
  return (await app.request('GET', '/openapi.json')).json;
}

function operationsOf(doc: { paths: Record<string, Record<string, Operation>> }) {
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
  );
}

/** The curl sample of an operation (exactly one). */
function curlOf(op: Operation): string {
  const samples = op['x-codeSamples'] ?? [];
  expect(
    samples.map((sample) => sample.label),
    op.operationId,
  ).toEqual(['curl']);
  return samples[0]?.source ?? '';
}

/**
 * What openapi-sampler writes for a schema without examples: "string" (cut or repeated to
 * the length limits: "stringstri"), its format placeholders and zero UUIDs. Redoc makes
 * those itself; the reference's examples must be real values.
 */
function samplerFiller(value: string): boolean {
  if (value.length > 0 && 'string'.repeat(Math.ceil(value.length / 6) + 1).startsWith(value)) return true;
  return [
    '2019-08-24',
    'user@example.com',
    'http://example.com',
    'example.com',
    '497f6eca-6276-4993-bfeb-53cbbbba6f08',
    '192.168.0.1',
    'pa$$word',
    'dGhlIHNhbXBsZQ==',
  ].some((filler) => value.includes(filler));
}

/** Every string inside every `example`/`examples` of the document, with where it is. */
function exampleStrings(node: unknown, where = '#', inExample = false): [string, string][] {
  if (typeof node === 'string') return inExample ? [[where, node]] : [];
  if (typeof node !== 'object' || node === null) return [];
  return Object.entries(node).flatMap(([key, child]) =>
    exampleStrings(child, `${where}/${key}`, inExample || key === 'example' || key === 'examples'),
  );
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
        } else if (status.startsWith('2') && status !== '204') {
          // Every answer with a body says what it is; a JSON one shows an example.
          expect(Object.keys(answer.content ?? {}), where).not.toBeEmpty();
          if (answer.content?.['application/json'])
            expect(answer.content['application/json'].example, where).toBeDefined();
        }
      }
    }
    // Each successful status shows its own answer: a page's domain request, active or waiting.
    const registered = doc.paths['/v1/widget/register-domain'].post.responses;
    expect([200, 202].map((status) => registered[status].content['application/json'].example.domain.status)).toEqual([
      'active',
      'pending',
    ]);
    // Each error code has an example under its status.
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      const shared = doc.components.responses[`Error${status}`];
      expect(shared.content['application/json'].examples[code].value.error.code).toBe(code);
    }
  });

  test('no example is sampler filler: every one holds realistic values', async () => {
    const doc = await openApiDocument();
    const strings = exampleStrings(doc);
    expect(strings.length).toBeGreaterThan(100);
    expect(strings.filter(([, value]) => samplerFiller(value))).toEqual([]);
    // The self-check: the filler the sampler made before the schemas had examples is caught.
    for (const filler of ['string', 'stringstri', '2019-08-24T14:15:22Z', 'user@example.com'])
      expect(samplerFiller(filler), filler).toBe(true);
    // Values in the formats the server makes them.
    const signup = doc.paths['/v1/auth/signup'].post.responses['201'].content['application/json'].example;
    expect(signup.account.apiKey).toMatch(/^pk_[0-9A-Za-z]{32}$/);
    expect(signup.account.id).toMatch(/^acct_[0-9A-Za-z]{16}$/);
    expect(signup.token.split('.')).toHaveLength(3);
    expect(new Date(signup.expiresAt).toISOString()).toBe(signup.expiresAt);
    const secret = doc.paths['/v1/account/signing-secret'].get.responses['200'].content['application/json'].example;
    expect(secret.signingSecret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    const internal = doc.components.responses.Error500.content['application/json'].examples.internal.value;
    expect(internal.error.message).toMatch(/request id [0-9a-f]{12}-[0-9a-z]+ /);
  });

  test('every path parameter is declared, with an example', async () => {
    const doc = await openApiDocument();
    for (const { path, op } of operationsOf(doc)) {
      const templated = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string);
      const declared = (op.parameters ?? []).filter((parameter) => parameter.in === 'path');
      expect(declared.map((parameter) => parameter.name).sort(), op.operationId).toEqual(templated.sort());
      for (const parameter of declared) expect(parameter.example, op.operationId).toBeDefined();
    }
  });

  test('every operation has a curl sample against this server: its token, its body, its examples', async () => {
    const doc = await openApiDocument();
    const base = doc.servers[0].url;
    for (const { path, method, op } of operationsOf(doc)) {
      const curl = curlOf(op);
      const where = op.operationId;
      expect(curl, where).toStartWith('curl -s ');
      expect(curl, where).toContain(base);
      expect(curl, where).not.toMatch(/\{\w+\}/);
      expect(curl.includes('-H "Authorization: Bearer $CALC_TOKEN"'), where).toBe((op.security ?? []).length > 0);
      const body = op.requestBody?.content['application/json']?.example;
      if (body === undefined) expect(curl, where).not.toContain(' -d ');
      else expect(curl, where).toEndWith(`-d '${JSON.stringify(body).replaceAll("'", "'\\''")}'`);
      expect(curl.includes(` -X ${method} `), where).toBe(method !== (body === undefined ? 'GET' : 'POST'));
      expect(curl, where).toContain(path.replace(/\{.*$/, ''));
    }
  });

  test('the curl samples of a token route and of a widget route, in full', async () => {
    const doc = await openApiDocument();
    const base = doc.servers[0].url;
    expect(curlOf(doc.paths['/v1/widget-config/{calcId}'].put)).toBe(
      `curl -s -X PUT ${base}/v1/widget-config/bmi \\
  -H "Authorization: Bearer $CALC_TOKEN" \\
  -H 'Content-Type: application/json' \\
  -d '{"config":{"webhook":{"url":"https://api.shop.example/prefill","headers":{"Authorization":"Bearer shop-prefill-5f2c9e81"}}}}'`,
    );
    // A page's call: the Origin header a browser sends, naming the body's domain; no token.
    const load = doc.paths['/v1/widget/load'].post;
    const body = load.requestBody.content['application/json'].example;
    expect(curlOf(load)).toBe(
      `curl -s ${base}/v1/widget/load \\
  -H 'Origin: https://shop.example' \\
  -H 'Content-Type: application/json' \\
  -d '${JSON.stringify(body)}'`,
    );
    expect(body).toMatchObject({
      apiKey: expect.stringMatching(/^pk_/),
      domain: 'https://shop.example',
      calcId: 'bmi',
    });
    expect(curlOf(doc.paths['/v1/usage'].get)).toStartWith(
      `curl -s '${base}/v1/usage?from=2026-03-01&to=2026-03-14' \\\n`,
    );
  });

  test('the introduction says how to get a token, with curl against this server', async () => {
    const doc = await openApiDocument();
    expect(doc.info.description).toContain('## Getting a token');
    expect(doc.info.description).toContain(`curl -s ${doc.servers[0].url}/v1/auth/login`);
  });
});

describe('the curl samples, run by curl against a listening server', () => {
  /** Runs a sample as a shell would (the server's URL for the document's), with its status. */
  async function run(source: string, from: string, to: string, env: Record<string, string> = {}) {
    // A missing tool fails the test with what to install, never skips it.
    if (Bun.which('curl') === null)
      throw new Error("curl is missing, so the reference's curl samples cannot run. Install it: apt-get install curl.");
    const proc = Bun.spawn(['sh', '-c', `${source.replaceAll(from, to)} -w '\\n%{http_code}'`], {
      env: { ...process.env, ...env },
      stdout: 'pipe',
      stderr: 'inherit',
    });
    const output = await new Response(proc.stdout).text();
    expect(await proc.exited).toBe(0);
    const status = Number(output.slice(output.lastIndexOf('\n') + 1));
    const text = output.slice(0, output.lastIndexOf('\n'));
    return { status, json: text ? JSON.parse(text) : undefined };
  }

  /** The same keys all the way down (the values are this reference's, not this server's). */
  function shape(value: unknown): unknown {
    if (Array.isArray(value)) return value.slice(0, 1).map(shape);
    if (typeof value !== 'object' || value === null) return typeof value;
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, shape(child)]));
  }

  test('sign up, then a token route with $CALC_TOKEN, answer as documented', async () => {
    await using served = listeningApp();
    const doc = (await fetch(`${served.base}/openapi.json`).then((response) => response.json())) as any;
    const documented = (path: string, method: string, status: string) =>
      doc.paths[path][method].responses[status].content['application/json'].example;
    const server = doc.servers[0].url;

    const signup = await run(curlOf(doc.paths['/v1/auth/signup'].post), server, served.base);
    expect(signup.status).toBe(201);
    expect(shape(signup.json)).toEqual(shape(documented('/v1/auth/signup', 'post', '201')));
    expect(signup.json.account.email).toBe('owner@shop.example');

    const account = await run(curlOf(doc.paths['/v1/account'].get), server, served.base, {
      CALC_TOKEN: signup.json.token,
    });
    expect(account.status).toBe(200);
    // runsOutOn is null on a new account; the example shows a day.
    expect(shape({ ...account.json, usage: { ...account.json.usage, runsOutOn: 'x' } })).toEqual(
      shape(documented('/v1/account', 'get', '200')),
    );

    // A page's call, Origin header included, once the domain is on the list (the sample's key
    // is the reference's: this account's stands in for it).
    const add = await run(curlOf(doc.paths['/v1/domains'].post), server, served.base, {
      CALC_TOKEN: signup.json.token,
    });
    expect(add.status).toBe(201);
    const example = doc.paths['/v1/widget/load'].post.requestBody.content['application/json'].example;
    const load = await run(
      curlOf(doc.paths['/v1/widget/load'].post).replace(example.apiKey, signup.json.account.apiKey),
      server,
      served.base,
    );
    expect(load.status).toBe(200);
    // `results` shows only where the owner turned results on (docs/results.md); not here.
    const { results: _offered, ...loadAnswer } = documented('/v1/widget/load', 'post', '200');
    expect(_offered).toBeDefined();
    expect(shape(load.json)).toEqual(shape({ ...loadAnswer, values: {} }));

    // The catalogue's example is the real definition, to the letter.
    const calculator = await run(curlOf(doc.paths['/v1/calculators/{calcId}'].get), server, served.base);
    expect(calculator.status).toBe(200);
    expect(calculator.json).toEqual(documented('/v1/calculators/{calcId}', 'get', '200'));
  }, 30_000);
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
