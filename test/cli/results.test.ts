/**
 * `calc config set-results` and `calc results …` as separate processes against a real
 * server; the confirmation and the export's progress on a pseudo-terminal.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { jsonOf, startCliSession, type CliSession } from '../helpers/cli-session.ts';
import { SHOP_ORIGIN } from '../helpers/owners.ts';
import { runOnTerminal } from '../helpers/pty.ts';
import { submission } from '../helpers/results.ts';
import { tempDir } from '../helpers/temp-dir.ts';

// Every test starts several processes; a loaded machine must not turn that into a failure.
setDefaultTimeout(180_000);

let session: CliSession;
let owner: Awaited<ReturnType<CliSession['signedIn']>>;
const files = tempDir('calc-results-');
const ids: string[] = [];

/** A page's submission of bmi, as the widget sends it. */
async function submitted(extra: Record<string, unknown> = {}): Promise<string> {
  const response = await fetch(`${session.url}/v1/widget/submit`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain', origin: SHOP_ORIGIN },
    body: JSON.stringify(submission(owner, extra)),
  });
  expect(response.status).toBe(202);
  return ((await response.json()) as { id: string }).id;
}

const run = (args: string[]) => session.calc(args, { env: owner.env });

beforeAll(async () => {
  session = await startCliSession({
    serveEnv: { CALC_RATE_WIDGET_PER_MINUTE: '0', CALC_RATE_WIDGET_PER_DAY: '0' },
  });
  owner = await session.signedIn('base');
  expect((await run(['domains', 'add', SHOP_ORIGIN])).exitCode).toBe(0);
}, 180_000);
afterAll(async () => {
  await session[Symbol.asyncDispose]();
  files[Symbol.dispose]();
});

describe('calc config set-results', () => {
  test('turns results on with contact fields and texts in two languages; changes only what its flags name', async () => {
    const set = await run([
      'config',
      'set-results',
      'bmi',
      '--enable',
      '--contact-email',
      'required',
      '--consent-text',
      'Shop Example may email me about it.',
      '--consent-text-in',
      'de=Shop Example darf mir schreiben.',
      '--json',
    ]);
    expect(set.exitCode).toBe(0);
    expect(jsonOf<{ config: unknown }>(set.stdout).config).toEqual({
      results: {
        enabled: true,
        contact: { email: 'required', name: 'off' },
        consentText: { en: 'Shop Example may email me about it.', de: 'Shop Example darf mir schreiben.' },
      },
    });
    const button = await run(['config', 'set-results', 'bmi', '--button', 'Email me', '--contact-name', 'optional']);
    expect(button.exitCode).toBe(0);
    expect(button.stdout).toMatch(
      /Results:\s+on, button "Email me", email required, name optional, consent "Shop Example may email me about it\."/,
    );
    const nothing = await run(['config', 'set-results', 'bmi', '--json']);
    expect([nothing.exitCode, JSON.parse(nothing.stderr).error.code]).toEqual([1, 'invalid_flag']);
    const badLanguage = await run(['config', 'set-results', 'bmi', '--button', 'x', '--button-in', 'xx=y', '--json']);
    expect(JSON.parse(badLanguage.stderr).error.code).toBe('invalid_flag');
    const free = await session.signedIn('free');
    const plan = await session.calc(['config', 'set-results', 'bmi', '--enable', '--json'], { env: free.env });
    expect([plan.exitCode, JSON.parse(plan.stderr).error.code]).toEqual([1, 'plan_required']);
  });
});

describe('calc results', () => {
  beforeAll(async () => {
    await run(['config', 'set-results', 'bmi', '--enable']);
    ids.push(await submitted({ contact: { email: 'jo@example.net', name: 'Jo' } }));
    ids.push(await submitted({ contact: { email: 'ann@example.net', name: 'Ann' } }));
  });

  test('lists (table and --json), filters, pages, shows one', async () => {
    const table = await run(['results']);
    expect(table.exitCode).toBe(0);
    expect(table.stdout).toMatch(/CREATED\s+ID\s+CALCULATOR\s+DOMAIN\s+CONTACT\s+VISITOR/);
    expect(table.stdout).toContain(ids[0] ?? 'no id');
    const listed = jsonOf<{ results: { id: string }[]; nextCursor: string | null }>(
      (await run(['results', '--json'])).stdout,
    );
    expect(listed.results.map((r) => r.id)).toEqual(ids.toReversed());
    const jo = jsonOf<{ results: { id: string }[] }>(
      (await run(['results', '--email', 'JO@example.net', '--json'])).stdout,
    );
    expect(jo.results.map((r) => r.id)).toEqual(ids.slice(0, 1));
    const paged = await run(['results', '--limit', '1']);
    expect(paged.stdout).toMatch(/More: calc results --cursor \S+/);
    const none = await run(['results', '--calc', 'mortgage']);
    expect(none.stdout).toContain('No results.');

    const one = await run(['results', 'get', ids[0] ?? '']);
    expect(one.stdout).toMatch(/Email:\s+jo@example\.net/);
    expect(one.stdout).toMatch(/Inputs:\s+weightKg=80, heightCm=180/);
    expect(one.stdout).toMatch(/Consent:\s+"Shop Example may email me about it\." \(en\)/);
    const missing = await run(['results', 'get', 'res_nope', '--json']);
    expect([missing.exitCode, JSON.parse(missing.stderr).error.code]).toEqual([1, 'result_not_found']);
  });

  test('export: CSV and JSON lines to a file readable by its owner only, or to stdout; --json needs --output', async () => {
    const csvFile = join(files.path, 'results.csv');
    const csv = await run(['results', 'export', '--output', csvFile, '--json']);
    expect(csv.exitCode).toBe(0);
    const summary = jsonOf<{ results: number; bytes: number; format: string }>(csv.stdout);
    expect(summary).toMatchObject({ results: 2, format: 'csv', output: csvFile });
    const text = readFileSync(csvFile, 'utf8');
    expect(text.startsWith('\uFEFFid,createdAt,calcId')).toBe(true);
    expect(text.split('\r\n')).toHaveLength(4);
    expect(summary.bytes).toBe(Buffer.byteLength(text));
    expect(statSync(csvFile).mode & 0o777).toBe(0o600);

    const jsonl = await run(['results', 'export', '--format', 'jsonl', '--email', 'ann@example.net']);
    expect(jsonl.exitCode).toBe(0);
    expect(
      jsonl.stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line).id),
    ).toEqual([ids[1]]);
    expect(jsonl.stderr).toBe('');

    const refused = await run(['results', 'export', '--json']);
    expect([refused.exitCode, refused.stdout, JSON.parse(refused.stderr).error.code]).toEqual([1, '', 'invalid_flag']);
  });

  test('on a terminal: export shows its progress; delete asks first, --yes does not', async () => {
    const file = join(files.path, 'progress.jsonl');
    const env = { ...owner.env, CALC_API_URL: session.url, NO_COLOR: '1' };
    const exported = await runOnTerminal(
      [...session.command, 'results', 'export', '--format', 'jsonl', '-o', file],
      [],
      env,
    );
    expect(exported.exitCode).toBe(0);
    expect(exported.screen).toContain('Exporting: 2 results');
    expect(exported.screen).toContain(`Exported 2 results to ${file}.`);

    const target = await submitted();
    const kept = await runOnTerminal(
      [...session.command, 'results', 'delete', target],
      [{ waitFor: `Delete ${target}? [y/N] `, type: 'n\r' }],
      env,
    );
    expect(kept.exitCode).toBe(1);
    expect((await run(['results', 'get', target])).exitCode).toBe(0);
    const asked = await runOnTerminal(
      [...session.command, 'results', 'delete', target],
      [{ waitFor: `Delete ${target}? [y/N] `, type: 'y\r' }],
      env,
    );
    expect(asked.exitCode).toBe(0);
    expect(asked.screen).toContain(`Deleted ${target}.`);
    const scripted = await run(['results', 'delete', ids[1] ?? '', '--yes', '--json']);
    expect(jsonOf(scripted.stdout)).toEqual({ id: ids[1], deleted: true });
    const noTerminal = await run(['results', 'delete', ids[0] ?? '']);
    expect(noTerminal.exitCode).toBe(1);
    expect(noTerminal.stderr).toContain('--yes');
  });
});
