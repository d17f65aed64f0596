/**
 * The minting and verification examples of docs/webhooks.md, run as written: each
 * endpoint runs as its own process behind a real pull, each minting program's token goes
 * into a real widget load. PHP runs where `php` is installed (`npm test` and CI install
 * php-cli); without it the PHP test fails and says so.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listeningOn, ROOT } from '../helpers/process.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { testApp, type TestApp } from '../helpers/test-app.ts';
import { closedPort } from '../helpers/webhook-target.ts';
import { signedPullHeaders } from '../../src/webhook/signature.ts';

setDefaultTimeout(30_000);

const ORIGIN = 'https://shop.example';
const HOST = '127.0.0.2';
const DOC = readFileSync(join(ROOT, 'docs', 'webhooks.md'), 'utf8');

/** The fenced block after `<!-- example: NAME -->`. */
function example(name: string): string {
  const match = new RegExp(`<!-- example: ${name} -->\\n\`\`\`\\w+\\n([\\s\\S]*?)\\n\`\`\``).exec(DOC);
  if (!match?.[1]) throw new Error(`docs/webhooks.md has no example ${name}`);
  return match[1];
}

const LANGUAGES = {
  node: {
    program: 'node',
    apt: 'nodejs',
    file: (kind: string) => `${kind}.mjs`,
    serve: (file: string) => ['node', file],
  },
  python: {
    program: 'python3',
    apt: 'python3',
    file: (kind: string) => `${kind}.py`,
    serve: (file: string) => ['python3', file],
  },
  php: {
    program: 'php',
    apt: 'php-cli',
    file: (kind: string) => `${kind}.php`,
    serve: (file: string, port: number) => ['php', '-S', `${HOST}:${port}`, file],
  },
} as const;

type Language = keyof typeof LANGUAGES;

const dir = tempDir('calc-doc-examples-');
let app: TestApp;
beforeAll(() => {
  app = testApp({ env: { CALC_WEBHOOK_ALLOW_CIDRS: `${HOST}/32` } });
});
afterAll(() => {
  app[Symbol.dispose]();
  dir[Symbol.dispose]();
});

async function run(command: string[], env: Record<string, string>): Promise<string> {
  const proc = Bun.spawn(command, { env: { ...process.env, ...env }, stdout: 'pipe', stderr: 'pipe' });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  if (code !== 0) throw new Error(`${command.join(' ')} exited ${code}: ${stderr}`);
  return stdout.trim();
}

async function checkLanguage(language: Language) {
  const spec = LANGUAGES[language];
  if (Bun.which(spec.program) === null)
    throw new Error(
      `${spec.program} is not installed, so its example cannot run (install it: apt-get install ${spec.apt})`,
    );
  const mintFile = join(dir.path, spec.file('mint'));
  const verifyFile = join(dir.path, spec.file('prefill'));
  writeFileSync(mintFile, `${example(`${language}-mint`)}\n`);
  writeFileSync(verifyFile, `${example(`${language}-verify`)}\n`);

  const owner = await app.signup();
  await app.accounts.setPlan(owner.id, 'extra');
  await app.request('POST', '/v1/domains', { token: owner.token, body: { domain: ORIGIN } });
  const port = await closedPort(HOST);
  const url = `http://${HOST}:${port}/prefill?shop=42&lang=${language}`;
  const saved = await app.request('PUT', '/v1/widget-config/bmi', {
    token: owner.token,
    body: { config: { webhook: { url } } },
  });
  expect(saved.status).toBe(200);
  const secret = (await app.request('GET', '/v1/account/signing-secret', { token: owner.token })).json
    .signingSecret as string;
  const env = { CALC_SIGNING_SECRET: secret, PREFILL_URL: url, PORT: String(port), HOST };
  const server = Bun.spawn([...spec.serve(verifyFile, port)], {
    env: { ...process.env, ...env },
    stdout: 'ignore',
    stderr: 'ignore',
  });
  try {
    await listeningOn(HOST, port, server);
    const load = (context?: string) =>
      app.request('POST', '/v1/widget/load', {
        body: { apiKey: owner.apiKey, domain: ORIGIN, calcId: 'bmi', ...(context ? { context } : {}) },
        headers: { origin: ORIGIN },
      });

    // The minted token names the visitor; the endpoint verifies the pull and answers.
    const token = await run([spec.program, mintFile, 'cust_42'], env);
    const withVisitor = await load(token);
    expect(withVisitor.status).toBe(200);
    expect(withVisitor.json.values).toEqual({ weightKg: 77, heightCm: 180 });

    // A verified pull without a visitor: nothing to pre-fill, still a 200 with values {}.
    const anonymous = await load();
    expect(anonymous.json.values).toEqual({});
    const tested = await app.request('POST', '/v1/widget-config/bmi/test-webhook', { token: owner.token });
    expect({ outcome: tested.json.outcome, httpStatus: tested.json.httpStatus }).toEqual({
      outcome: 'ok',
      httpStatus: 200,
    });

    // During an overlap the endpoint still holding the previous secret keeps verifying.
    await app.request('POST', '/v1/account/signing-secret', { token: owner.token });
    expect((await load(token)).json.values).toEqual({ weightKg: 77, heightCm: 180 });

    // The endpoint refuses what it cannot verify: no signature, a stale one, another secret.
    const direct = await fetch(url, { headers: { 'Calc-Visitor': 'cust_42' } });
    expect(direct.status).toBe(401);
    const stale = await fetch(url, {
      headers: { 'Calc-Visitor': 'cust_42', 'Calc-Signature': `t=${Math.floor(Date.now() / 1000) - 400},v1=00` },
    });
    expect(stale.status).toBe(401);
    // v2, which has one reading: a genuine signature verifies; the same signature with text
    // moved from the origin into the visitor does not (under v1 it would), nor a v1 alone.
    const genuine = signedPullHeaders(
      { url, calcId: 'bmi', origin: ORIGIN, visitor: 'x.y,v1=00' },
      [secret],
      Date.now() / 1000,
    );
    expect((await fetch(url, { headers: genuine })).status).toBe(200);
    const shifted = { ...genuine, 'Calc-Origin': `${ORIGIN}.x`, 'Calc-Visitor': 'y,v1=00' };
    expect((await fetch(url, { headers: shifted })).status).toBe(401);
    const v1Only = { ...genuine, 'Calc-Signature': (genuine['Calc-Signature'] ?? '').replace(/,v2=[0-9a-f]+/g, '') };
    expect((await fetch(url, { headers: v1Only })).status).toBe(401);
    const stranger = await app.signup();
    await app.accounts.setPlan(stranger.id, 'extra');
    await app.request('PUT', '/v1/widget-config/bmi', {
      token: stranger.token,
      body: { config: { webhook: { url } } },
    });
    const refused = await app.request('POST', '/v1/widget-config/bmi/test-webhook', { token: stranger.token });
    expect({ outcome: refused.json.outcome, httpStatus: refused.json.httpStatus }).toEqual({
      outcome: 'http_error',
      httpStatus: 401,
    });
  } finally {
    server.kill();
    await server.exited;
  }
}

describe('docs/webhooks.md examples against a real pull', () => {
  test('JavaScript (Node, no dependency): mint and verify', () => checkLanguage('node'));
  test('Python (standard library): mint and verify', () => checkLanguage('python'));
  test('PHP (runs where php is installed; npm test and CI install php-cli): mint and verify', () =>
    checkLanguage('php'));
});
