import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { createHmac } from 'node:crypto';
import { jsonOf, startCliSession, type CliSession } from '../helpers/cli-session.ts';
import { HOOK_TIMEOUT_MS } from '../helpers/timeouts.ts';
import { startTarget, type TargetServer } from '../helpers/webhook-target.ts';

// Every test starts processes; a loaded machine must not turn that into a failure.
setDefaultTimeout(30_000);

/** The signing-secret and visitor-context commands against a real server and a real target. */
const ORIGIN = 'https://shop.example';

let session: CliSession;
let target: TargetServer;
let owner: Awaited<ReturnType<CliSession['signedIn']>>;

beforeAll(async () => {
  target = startTarget('127.0.0.2', () => Response.json({ weightKg: 70 }));
  session = await startCliSession({ serveEnv: { CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.2/32' } });
  owner = await session.signedIn('extra');
  for (const args of [
    ['domains', 'add', ORIGIN],
    ['config', 'set-webhook', 'bmi', '--url', target.url('/prefill?from=cli')],
  ]) {
    const result = await session.calc(args, { env: owner.env });
    if (result.exitCode !== 0) throw new Error(`${args.join(' ')}: ${result.stderr}`);
  }
}, 30_000);
afterAll(async () => {
  await session[Symbol.asyncDispose]();
  await target.stop();
}, HOOK_TIMEOUT_MS);

const asOwner = (args: string[], env: Record<string, string> = {}) =>
  session.calc(args, { env: { ...owner.env, ...env } });

/** A widget load as a page would make it, returning the headers the target received. */
async function load(context: string) {
  const before = target.hits;
  const res = await fetch(`${session.url}/v1/widget/load`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain', origin: ORIGIN },
    body: JSON.stringify({ apiKey: owner.apiKey, domain: ORIGIN, calcId: 'bmi', context }),
  });
  expect(res.status).toBe(200);
  expect(target.hits).toBe(before + 1);
  return target.requests.at(-1)?.headers ?? {};
}

function signatureValid(headers: Record<string, string>, secret: string): boolean {
  const [t, ...v1s] = (headers['calc-signature'] ?? '').split(',');
  const message = `${t?.slice(2)}.GET.${target.url('/prefill?from=cli')}.${headers['calc-calculator']}.${headers['calc-origin']}.${headers['calc-visitor'] ?? ''}`;
  const expected = `v1=${createHmac('sha256', secret).update(message).digest('hex')}`;
  return v1s.includes(expected);
}

describe('calc keys signing-secret', () => {
  test('shows the secret; --rotate replaces it and says until when the previous one works', async () => {
    const shown = await asOwner(['keys', 'signing-secret', '--json']);
    expect(shown.exitCode).toBe(0);
    const before = jsonOf<{ signingSecret: string; previousValidUntil: string | null }>(shown.stdout);
    expect(before.signingSecret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    expect(before.previousValidUntil).toBeNull();
    const human = await asOwner(['keys', 'signing-secret']);
    expect(human.stdout).toContain(before.signingSecret);
    expect(human.stdout).toMatch(/Previous secret:\s+none/);

    const rotated = await asOwner(['keys', 'signing-secret', '--rotate', '--yes']);
    expect(rotated.exitCode).toBe(0);
    expect(rotated.stdout).toMatch(/Previous secret:\s+still valid until \d{4}-\d\d-\d\dT/);
    expect(rotated.stdout).not.toContain(before.signingSecret);
    const after = jsonOf<{ signingSecret: string; previousValidUntil: string }>(
      (await asOwner(['keys', 'signing-secret', '--json'])).stdout,
    );
    expect(after.signingSecret).not.toBe(before.signingSecret);
    expect(rotated.stdout).toContain(after.signingSecret);
  });
});

describe('calc context mint', () => {
  test('a minted token on a load makes the pull name the visitor, signed with the current secret', async () => {
    const minted = await asOwner([
      'context',
      'mint',
      '--visitor',
      'cust_42',
      '--ttl',
      '1h',
      '--calc',
      'bmi',
      '--origin',
      ORIGIN,
    ]);
    expect(minted.exitCode).toBe(0);
    const token = minted.stdout.trim();
    expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const headers = await load(token);
    expect(headers['calc-visitor']).toBe('cust_42');
    const { signingSecret } = jsonOf<{ signingSecret: string }>(
      (await asOwner(['keys', 'signing-secret', '--json'])).stdout,
    );
    expect(signatureValid(headers, signingSecret)).toBe(true);
  });

  test('--json gives the claims; with CALC_SIGNING_SECRET no server or sign-in is needed', async () => {
    const { signingSecret } = jsonOf<{ signingSecret: string }>(
      (await asOwner(['keys', 'signing-secret', '--json'])).stdout,
    );
    const offline = await session.calc(['context', 'mint', '--visitor', 'cust_7', '--json'], {
      env: { CALC_SIGNING_SECRET: signingSecret, CALC_API_URL: 'http://127.0.0.1:9' },
    });
    expect(offline.exitCode).toBe(0);
    const { token, claims } = jsonOf<{ token: string; claims: { sub: string; exp: number } }>(offline.stdout);
    expect(claims.sub).toBe('cust_7');
    expect(claims.exp - Date.now() / 1000).toBeGreaterThan(500);
    expect(claims.exp - Date.now() / 1000).toBeLessThanOrEqual(600);
    expect((await load(token))['calc-visitor']).toBe('cust_7');
    // Minted for another origin: no visitor, the load still answers 200.
    const elsewhere = await asOwner(['context', 'mint', '--visitor', 'cust_8', '--origin', 'https://other.example']);
    expect((await load(elsewhere.stdout.trim()))['calc-visitor']).toBeUndefined();
  });

  test.each([
    [['--visitor', ''], /--visitor/],
    [['--visitor', 'x'.repeat(129)], /--visitor/],
    [['--visitor', 'a', '--ttl', '25h'], /--ttl/],
    [['--visitor', 'a', '--ttl', 'soon'], /--ttl/],
    [['--visitor', 'a', '--origin', 'not an origin'], /--origin/],
    [['--visitor', 'a', '--calc', '../x'], /calculator id/],
  ])('refuses %p with one line and exit 1', async (args, message) => {
    const result = await asOwner(['context', 'mint', ...args]);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
  });
});

describe('calc config test-webhook --visitor', () => {
  test('the test pull carries Calc-Visitor and a valid signature', async () => {
    const result = await asOwner(['config', 'test-webhook', 'bmi', '--visitor', 'cust 9', '--json']);
    expect(result.exitCode).toBe(0);
    expect(jsonOf<{ outcome: string }>(result.stdout).outcome).toBe('ok');
    const headers = target.requests.at(-1)?.headers ?? {};
    expect(headers['calc-visitor']).toBe('cust 9');
    expect(headers['calc-origin']).toBe(ORIGIN);
    const { signingSecret } = jsonOf<{ signingSecret: string }>(
      (await asOwner(['keys', 'signing-secret', '--json'])).stdout,
    );
    expect(signatureValid(headers, signingSecret)).toBe(true);
  });
});
