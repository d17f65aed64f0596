import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { jsonOf, startCliSession, type CliSession } from '../helpers/cli-session.ts';
import { startTarget, type TargetServer } from '../helpers/webhook-target.ts';
import { HOOK_TIMEOUT_MS } from '../helpers/timeouts.ts';

// Every test starts processes; a loaded machine must not turn that into a failure.
setDefaultTimeout(30_000);

/**
 * The webhook commands against a real server whose guard lets 127.0.0.2 through
 * (CALC_WEBHOOK_ALLOW_CIDRS), with a real target server on that address.
 */
const SECRET = 's3cr3t-value-never-shown';

let session: CliSession;
let target: TargetServer;
let extra: Awaited<ReturnType<CliSession['signedIn']>>;
let free: Awaited<ReturnType<CliSession['signedIn']>>;
let answer: () => Response = () => Response.json({ weightKg: 80, heightCm: 180, favouriteColour: 'blue' });

beforeAll(async () => {
  target = startTarget('127.0.0.2', () => answer());
  session = await startCliSession({ serveEnv: { CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.2/32' } });
  [extra, free] = await Promise.all([session.signedIn('extra'), session.signedIn('free')]);
}, 30_000);
afterAll(async () => {
  await session[Symbol.asyncDispose]();
  await target.stop();
}, HOOK_TIMEOUT_MS);

const asExtra = (args: string[], stdin?: string) => session.calc(args, { env: extra.env, stdin });
const noSecret = (result: { stdout: string; stderr: string }) => {
  expect(result.stdout).not.toContain(SECRET);
  expect(result.stderr).not.toContain(SECRET);
};

describe('calc config set-webhook', () => {
  test('saves URL and headers (--header and --header-stdin); the values are never printed', async () => {
    const result = await asExtra(
      ['config', 'set-webhook', 'bmi', '--url', target.url('/prefill'), '--header', 'X-Shop: 42', '--header-stdin'],
      `Authorization: Bearer ${SECRET}\n`,
    );
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('Saved the webhook of bmi.');
    expect(result.stdout).toMatch(/Headers:\s+X-Shop: <redacted>, Authorization: <redacted>/);
    noSecret(result);
  });

  test('--json is exactly the PUT body', async () => {
    const result = await asExtra(
      [
        'config',
        'set-webhook',
        'bmi',
        '--url',
        target.url('/prefill'),
        '--header',
        'X-Shop: 42',
        '--header-stdin',
        '--json',
      ],
      `Authorization: Bearer ${SECRET}\n`,
    );
    expect(result.exitCode).toBe(0);
    expect(jsonOf(result.stdout)).toEqual({
      calcId: 'bmi',
      config: {
        webhook: { url: target.url('/prefill'), headers: { 'X-Shop': '<redacted>', Authorization: '<redacted>' } },
      },
      webhookStatus: null,
    });
  });

  test("a plan other than Extra: the server's plan_required message, exit 1", async () => {
    const result = await session.calc(['config', 'set-webhook', 'bmi', '--url', target.url('/prefill')], {
      env: free.env,
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(
      `Error: Webhooks need the Extra plan (50 USD per month); this account is on the Free plan. Whoever runs this server changes plans with \`calc admin accounts set-plan --email ${free.email} --plan extra\`.\n`,
    );
  });

  test('bad header names and values are refused locally (exit 1) without echoing the value', async () => {
    for (const header of ['Bad Name: x', `X-Injected: ${SECRET}\r\nHost: evil.example`, 'no colon here']) {
      const result = await asExtra([
        'config',
        'set-webhook',
        'bmi',
        '--url',
        target.url('/prefill'),
        '--header',
        header,
      ]);
      expect(result.exitCode).toBe(1);
      noSecret(result);
    }
    const asJson = await asExtra(['config', 'set-webhook', 'bmi', '--url', target.url('/'), '--header', 'x', '--json']);
    expect(JSON.parse(asJson.stderr).error.code).toBe('invalid_flag');
    const fromStdin = await asExtra(
      ['config', 'set-webhook', 'bmi', '--url', target.url('/'), '--header-stdin'],
      `X-Ok: 1\nX-Bad\u0000: 2\n`,
    );
    expect(fromStdin.exitCode).toBe(1);
    expect(fromStdin.stderr).toContain('line 2 of standard input');
  });

  test("a URL that is not http(s) is refused locally; one the guard refuses gets the server's 422 message", async () => {
    for (const url of ['notaurl', 'ftp://127.0.0.2/x']) {
      const result = await asExtra(['config', 'set-webhook', 'bmi', '--url', url]);
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toContain('--url');
      const json = await asExtra(['config', 'set-webhook', 'bmi', '--url', url, '--json']);
      expect(json.exitCode).toBe(1);
      expect(json.stdout).toBe('');
      expect(jsonOf<{ error: { code: string } }>(json.stderr).error.code).toBe('invalid_flag');
    }
    const loopback = await asExtra([
      'config',
      'set-webhook',
      'bmi',
      '--url',
      'http://127.0.0.1:9999/prefill',
      '--json',
    ]);
    expect(loopback.exitCode).toBe(1);
    expect(loopback.stdout).toBe('');
    const error = jsonOf<{ error: { code: string; message: string } }>(loopback.stderr).error;
    expect(error.code).toBe('invalid_webhook_url');
    expect(error.message).toStartWith('config.webhook.url is refused: ');
  });

  test('headers the server refuses (Host) pass its 400 message through', async () => {
    const result = await asExtra([
      'config',
      'set-webhook',
      'bmi',
      '--url',
      target.url('/'),
      '--header',
      'Host: evil.example',
      '--json',
    ]);
    expect(result.exitCode).toBe(1);
    expect(jsonOf<{ error: { code: string } }>(result.stderr).error.code).toBe('invalid_request');
  });

  test('unknown calculator: 404 message; bad id: refused locally; missing --url: exit 2', async () => {
    const unknown = await asExtra(['config', 'set-webhook', 'nope', '--url', target.url('/')]);
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toBe('Error: There is no calculator "nope".\n');
    expect((await asExtra(['config', 'get', '../account'])).exitCode).toBe(1);
    const missing = await asExtra(['config', 'set-webhook', 'bmi']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('Missing required flag url');
  });
});

describe('calc config get and test-webhook', () => {
  test('get shows the URL, header names with values redacted, and "never" before any fetch', async () => {
    await asExtra(
      ['config', 'set-webhook', 'bmi', '--url', target.url('/prefill'), '--header-stdin'],
      `Authorization: Bearer ${SECRET}\nX-Shop: 42\n`,
    );
    const result = await asExtra(['config', 'get', 'bmi']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/Webhook:\s+http:\/\/127\.0\.0\.2:\d+\/prefill/);
    expect(result.stdout).toMatch(/Headers:\s+Authorization: <redacted>, X-Shop: <redacted>/);
    expect(result.stdout).toMatch(/Last fetch:\s+never/);
    noSecret(result);
    const json = await asExtra(['config', 'get', 'bmi', '--json']);
    expect(jsonOf(json.stdout)).toMatchObject({
      calcId: 'bmi',
      config: { webhook: { headers: { Authorization: '<redacted>', 'X-Shop': '<redacted>' } } },
      webhookStatus: null,
    });
    noSecret(json);
  });

  test('test-webhook shows outcome, status, duration, pre-fill and ignored keys; the target got the real header', async () => {
    const hits = target.hits;
    const result = await asExtra(['config', 'test-webhook', 'bmi']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/Outcome:\s+ok \(/);
    expect(result.stdout).toMatch(/HTTP status:\s+200/);
    expect(result.stdout).toMatch(/Duration:\s+\d+ ms/);
    expect(result.stdout).toMatch(/Pre-fill:\s+weightKg = 80, heightCm = 180/);
    expect(result.stdout).toMatch(/Ignored keys:\s+favouriteColour/);
    noSecret(result);
    expect(target.hits).toBe(hits + 1);
    expect(target.requests.at(-1)?.headers.authorization).toBe(`Bearer ${SECRET}`);

    const json = await asExtra(['config', 'test-webhook', 'bmi', '--json']);
    const body = jsonOf<Record<string, unknown>>(json.stdout);
    expect(Object.keys(body).sort()).toEqual(['durationMs', 'httpStatus', 'ignoredKeys', 'outcome', 'values']);
    expect(body).toMatchObject({
      outcome: 'ok',
      httpStatus: 200,
      values: { weightKg: 80, heightCm: 180 },
      ignoredKeys: ['favouriteColour'],
    });
  });

  test('get then shows the last outcome', async () => {
    const result = await asExtra(['config', 'get', 'bmi']);
    expect(result.stdout).toMatch(/Last fetch:\s+ok \(.*\), HTTP 200, \d+ ms, at \d{4}-/);
  });

  test('a failing webhook: the outcome is shown and the exit code is 1 (also with --json)', async () => {
    answer = () => new Response('oops', { status: 500 });
    try {
      const result = await asExtra(['config', 'test-webhook', 'bmi']);
      expect(result.exitCode).toBe(1);
      expect(result.stdout).toMatch(/Outcome:\s+http_error/);
      expect(result.stdout).toMatch(/HTTP status:\s+500/);
      const json = await asExtra(['config', 'test-webhook', 'bmi', '--json']);
      expect(json.exitCode).toBe(1);
      expect(jsonOf(json.stdout)).toMatchObject({ outcome: 'http_error', httpStatus: 500, values: {} });
    } finally {
      answer = () => Response.json({ weightKg: 80, heightCm: 180, favouriteColour: 'blue' });
    }
  });

  test('--keep-headers changes the URL and keeps the stored values; without it headers are replaced', async () => {
    const kept = await asExtra([
      'config',
      'set-webhook',
      'bmi',
      '--url',
      target.url('/v2'),
      '--keep-headers',
      '--header',
      'X-Shop: 43',
    ]);
    expect(kept.exitCode).toBe(0);
    await asExtra(['config', 'test-webhook', 'bmi']);
    const sent = target.requests.at(-1);
    expect(sent?.path).toBe('/v2');
    expect(sent?.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(sent?.headers['x-shop']).toBe('43');

    const replaced = await asExtra(['config', 'set-webhook', 'bmi', '--url', target.url('/v3'), '--json']);
    expect(jsonOf(replaced.stdout)).toMatchObject({ config: { webhook: { url: target.url('/v3'), headers: {} } } });
  });
});

describe('calc config remove-webhook', () => {
  test('removes it; --json is the PUT body; get then says none', async () => {
    const result = await asExtra(['config', 'remove-webhook', 'bmi', '--yes', '--json']);
    expect(result.exitCode).toBe(0);
    expect(jsonOf(result.stdout)).toEqual({ calcId: 'bmi', config: {}, webhookStatus: null });
    const get = await asExtra(['config', 'get', 'bmi']);
    expect(get.stdout).toMatch(/Webhook:\s+none/);
    const human = await asExtra(['config', 'remove-webhook', 'bmi', '--yes']);
    expect(human.stdout).toBe('bmi has no webhook now; widgets load with their defaults.\n');
  });

  test('works on the Free plan; test-webhook there reports plan_required (exit 1)', async () => {
    expect((await session.calc(['config', 'remove-webhook', 'bmi', '--yes'], { env: free.env })).exitCode).toBe(0);
    const tested = await session.calc(['config', 'test-webhook', 'bmi', '--json'], { env: free.env });
    expect(tested.exitCode).toBe(1);
    expect(jsonOf(tested.stdout)).toMatchObject({ outcome: 'plan_required' });
  });

  test('not signed in: exit 4', async () => {
    for (const args of [
      ['config', 'get', 'bmi'],
      ['config', 'remove-webhook', 'bmi'],
      ['config', 'test-webhook', 'bmi'],
    ]) {
      expect((await session.calc(args)).exitCode).toBe(4);
    }
  });
});
