/**
 * The endpoints of docs/results.md, run as written against real deliveries: JavaScript with
 * the official `standardwebhooks` package, Python and PHP with their standard libraries.
 * PHP runs where `php` is installed (`npm test` and CI install php-cli); without it the PHP
 * test fails and says so.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { createHmac } from 'node:crypto';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listeningOn, ROOT } from '../helpers/process.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { testApp, type TestApp } from '../helpers/test-app.ts';
import { closedPort } from '../helpers/webhook-target.ts';

setDefaultTimeout(30_000);

const HOST = '127.0.0.2';
const DOC = readFileSync(join(ROOT, 'docs', 'results.md'), 'utf8');
const ENDPOINT = '/v1/account/results-endpoint';

function example(name: string): string {
  const match = new RegExp(`<!-- example: ${name} -->\\n\`\`\`\\w+\\n([\\s\\S]*?)\\n\`\`\``).exec(DOC);
  if (!match?.[1]) throw new Error(`docs/results.md has no example ${name}`);
  return match[1];
}

const LANGUAGES = {
  node: { program: 'node', apt: 'nodejs', file: 'endpoint.mjs', serve: (file: string) => ['node', file] },
  python: { program: 'python3', apt: 'python3', file: 'endpoint.py', serve: (file: string) => ['python3', file] },
  php: {
    program: 'php',
    apt: 'php-cli',
    file: 'endpoint.php',
    serve: (file: string, port: number) => ['php', '-S', `${HOST}:${port}`, file],
  },
} as const;

const dir = tempDir('calc-results-examples-');
let app: TestApp;
beforeAll(() => {
  // The JavaScript example imports the package as an owner's project would have it installed.
  symlinkSync(join(ROOT, 'node_modules'), join(dir.path, 'node_modules'));
  app = testApp({ env: { CALC_WEBHOOK_ALLOW_CIDRS: `${HOST}/32` } });
});
afterAll(() => {
  app[Symbol.dispose]();
  dir[Symbol.dispose]();
});

/** A delivery's headers signed with `secret`, as calc signs one (for the refusals below). */
function signed(secret: string, id: string, timestamp: number, body: string): Record<string, string> {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': `v1,${signature}`,
  };
}

async function checkLanguage(language: keyof typeof LANGUAGES) {
  const spec = LANGUAGES[language];
  if (Bun.which(spec.program) === null)
    throw new Error(
      `${spec.program} is not installed, so its example cannot run (install it: apt-get install ${spec.apt})`,
    );
  const file = join(dir.path, spec.file);
  writeFileSync(file, `${example(`${language}-endpoint`)}\n`);

  const owner = await app.signup();
  await app.accounts.setPlan(owner.id, 'base');
  const port = await closedPort(HOST);
  const url = `http://${HOST}:${port}/calc-events`;
  const saved = await app.request('PUT', ENDPOINT, { token: owner.token, body: { url } });
  expect(saved.status).toBe(201);
  const secret: string = saved.json.secret;
  const server = Bun.spawn([...spec.serve(file, port)], {
    cwd: dir.path,
    env: { ...process.env, CALC_ENDPOINT_SECRET: secret, PORT: String(port), HOST },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  try {
    await listeningOn(HOST, port, server);
    const test = async () => (await app.request('POST', `${ENDPOINT}/test`, { token: owner.token })).json;
    const first = await test();
    expect(first.delivery).toMatchObject({ outcome: 'ok', status: 204 });

    // A resend (same webhook-id) is accepted too; the endpoint skips what it processed.
    await app.delivery.start();
    await app.request('POST', `${ENDPOINT}/deliveries/${first.eventId}/resend`, { token: owner.token });
    await app.delivery.idle();
    const log = await app.request('GET', `${ENDPOINT}/deliveries?eventId=${first.eventId}`, { token: owner.token });
    expect(log.json.deliveries.map((d: { attempt: number; status: number }) => [d.attempt, d.status])).toEqual([
      [2, 204],
      [1, 204],
    ]);

    // Rotated: the endpoint still holds the old secret and keeps verifying during the overlap.
    await app.request('POST', `${ENDPOINT}/rotate-secret`, { token: owner.token });
    expect((await test()).delivery).toMatchObject({ outcome: 'ok', status: 204 });

    // Refused: no signature, another secret, a changed body, an old timestamp.
    const now = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({
      type: 'test',
      version: 1,
      id: 'msg_forged',
      createdAt: new Date().toISOString(),
      data: {},
    });
    const post = (headers: Record<string, string>, text = body) =>
      fetch(url, { method: 'POST', headers, body: text }).then((res) => res.status);
    expect(await post({ 'content-type': 'application/json' })).toBe(401);
    expect(await post(signed(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, 'msg_forged', now, body))).toBe(401);
    expect(await post(signed(secret, 'msg_forged', now, body), body.replace('test', 'tset'))).toBe(401);
    expect(await post(signed(secret, 'msg_forged', now - 600, body))).toBe(401);
    expect(await post(signed(secret, 'msg_forged', now, body))).toBe(204);
  } finally {
    server.kill();
    await server.exited;
  }
}

describe('docs/results.md endpoints against real deliveries', () => {
  test('JavaScript (Node, the official standardwebhooks package)', () => checkLanguage('node'));
  test('Python (standard library)', () => checkLanguage('python'));
  test('PHP (runs where php is installed; npm test and CI install php-cli)', () => checkLanguage('php'));
});
