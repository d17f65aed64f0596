import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { jsonOf, startCliSession, type CliSession } from '../helpers/cli-session.ts';

// Every test starts processes; a loaded machine must not turn that into a failure.
setDefaultTimeout(30_000);

const PUBLIC_URL = 'https://calc.shop.example';

let session: CliSession;
let owner: Awaited<ReturnType<CliSession['signedIn']>>;
beforeAll(async () => {
  // A public URL unlike the listen address: embed snippets must use it, not the address calc talks to.
  session = await startCliSession({ serveArgs: ['--public-url', PUBLIC_URL] });
  owner = await session.signedIn();
}, 30_000);
afterAll(() => session[Symbol.asyncDispose]());

const calc = (...args: string[]) => session.calc(args, { env: owner.env });

describe('calc calculators', () => {
  test('prints an aligned table; --json is exactly GET /v1/calculators; no sign-in needed', async () => {
    const result = await session.calc(['calculators']);
    expect(result.exitCode).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+CATEGORY\s+TITLE\s+UNITS\s+FIELD KEYS$/);
    const bmi = lines.find((line) => line.startsWith('bmi '));
    expect(bmi).toContain('weightKg, heightCm, weight, height');
    // Aligned: every row's second column starts where the header's does.
    const column = lines[0]?.indexOf('CATEGORY');
    for (const line of lines.slice(1)) expect(line.slice(0, column).endsWith(' ')).toBe(true);

    const json = await session.calc(['calculators', '--json']);
    expect(jsonOf(json.stdout)).toEqual(await (await fetch(`${session.url}/v1/calculators`)).json());
  });
});

describe('calc embed', () => {
  test('prints the snippet with the account key and the public URL, and nothing else', async () => {
    const publicUrl = jsonOf<{ publicUrl: string }>((await calc('whoami', '--json')).stdout).publicUrl;
    expect(publicUrl).toBe(PUBLIC_URL);
    const result = await calc('embed', 'bmi');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(
      `<script src="${publicUrl}/widget.js" async></script>\n<div data-calc-widget data-calc-id="bmi" data-api-key="${owner.apiKey}"></div>\n`,
    );
  });

  test('--json prints {calcId, snippet, publicUrl, apiKey}', async () => {
    const result = await calc('embed', 'loan', '--json');
    expect(result.exitCode).toBe(0);
    const body = jsonOf<Record<string, string>>(result.stdout);
    expect(Object.keys(body).sort()).toEqual(['apiKey', 'calcId', 'publicUrl', 'snippet']);
    expect(body).toMatchObject({ calcId: 'loan', publicUrl: PUBLIC_URL, apiKey: owner.apiKey });
    expect(body.snippet).toContain('data-calc-id="loan"');
  });

  test('--values puts starting values in data-values; bad JSON and unknown keys are refused: exit 1', async () => {
    const result = await calc('embed', 'bmi', '--values', `{"weightKg": 80, "note": "it's"}`);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('bmi has no field "note"');
    const ok = await calc('embed', 'bmi', '--values', '{"weightKg": 80, "height": 70}', '--units', 'imperial');
    expect(ok.exitCode).toBe(0);
    expect(ok.stdout).toContain(` data-units="imperial" data-values='{"weightKg":80,"height":70}'></div>`);
    for (const bad of ['{weightKg: 80}', '[80]', '{"weightKg": {"kg": 80}}', '80']) {
      const refused = await calc('embed', 'bmi', '--values', bad);
      expect(refused.exitCode).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toContain('--values must be a JSON object of numbers and strings');
    }
  });

  test("an unknown calculator passes the server's 404 message through: exit 1", async () => {
    const result = await calc('embed', 'no-such-calc');
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('Error: There is no calculator "no-such-calc".\n');
  });

  test('one of your own calculators: its input keys for --values; a warning until it is published', async () => {
    expect((await calc('calculators', 'create', '--from', 'loan', '--id', 'my-loan')).exitCode).toBe(0);
    const draft = await calc('embed', 'my-loan');
    expect(draft.exitCode).toBe(0);
    expect(draft.stdout).toContain(`data-calc-id="my-loan" data-api-key="${owner.apiKey}"`);
    expect(draft.stderr).toContain('"my-loan" is not published yet');
    expect((await calc('calculators', 'publish', 'my-loan')).exitCode).toBe(0);
    const published = await calc('embed', 'my-loan', '--values', '{"amount": 12000}');
    expect(published.exitCode).toBe(0);
    expect(published.stderr).toBe('');
    expect(published.stdout).toContain(
      `data-calc-id="my-loan" data-api-key="${owner.apiKey}" data-values='{"amount":12000}'`,
    );
    const unknown = await calc('embed', 'my-loan', '--values', '{"weightKg": 80}');
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toContain('my-loan has no field "weightKg" (its keys: amount, annualRate, termYears)');
  });

  test('an id that would change the URL path is refused locally: exit 1', async () => {
    for (const id of ['..', 'bmi/../account', 'BMI', 'bmi?x=1']) {
      const result = await calc('embed', id);
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toContain('is not a calculator id');
    }
  });

  test('needs a sign-in: exit 4', async () => {
    const result = await session.calc(['embed', 'bmi']);
    expect(result.exitCode).toBe(4);
  });
});

describe('calc keys rotate', () => {
  test('replaces the key; --json is exactly the rotate body; whoami and embed show the new key', async () => {
    const rotated = await calc('keys', 'rotate', '--yes', '--json');
    expect(rotated.exitCode).toBe(0);
    const body = jsonOf<{ account: { apiKey: string } }>(rotated.stdout);
    expect(Object.keys(body)).toEqual(['account']);
    expect(body.account.apiKey).toMatch(/^pk_[A-Za-z0-9]{24,}$/);
    expect(body.account.apiKey).not.toBe(owner.apiKey);
    expect((await calc('embed', 'bmi')).stdout).toContain(body.account.apiKey);

    const human = await calc('keys', 'rotate', '--yes');
    expect(human.exitCode).toBe(0);
    expect(human.stdout).toMatch(/^New API key: pk_[A-Za-z0-9]+\nThe old key no longer works/);
    const current = jsonOf<{ account: { apiKey: string } }>((await calc('whoami', '--json')).stdout).account.apiKey;
    expect(human.stdout).toContain(current);
  });
});
