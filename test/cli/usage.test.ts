import { Database } from 'bun:sqlite';
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { join } from 'node:path';
import { jsonOf, startCliSession, type CliSession } from '../helpers/cli-session.ts';

// Every test starts processes; a loaded machine must not turn that into a failure.
setDefaultTimeout(30_000);

const SHOP = 'https://shop.example';
const BLOG = 'https://blog.example';

let session: CliSession;
beforeAll(async () => {
  session = await startCliSession({ serveArgs: ['--quota-free', '10'] });
}, 30_000);
afterAll(() => session[Symbol.asyncDispose]());

/** Writes rows straight into the server's database, as days of past loads would have. */
function writeRows(sql: string, ...params: (string | number)[]) {
  const db = new Database(join(session.dataDir, 'calc.db'));
  try {
    db.run('PRAGMA busy_timeout = 5000');
    db.run(sql, params);
  } finally {
    db.close();
  }
}

async function signedInOwner() {
  const owner = await session.signedIn();
  const calc = (...args: string[]) => session.calc(args, { env: owner.env });
  const whoami = jsonOf<{ account: { id: string } }>((await calc('whoami', '--json')).stdout);
  return { ...owner, id: whoami.account.id, calc };
}

async function load(apiKey: string, domain = SHOP) {
  const response = await fetch(`${session.url}/v1/widget/load`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: domain },
    body: JSON.stringify({ apiKey, domain, calcId: 'bmi' }),
  });
  return response.status;
}

const thisMonth = () => new Date().toISOString().slice(0, 7);

describe('calc usage', () => {
  let owner: Awaited<ReturnType<typeof signedInOwner>>;
  beforeAll(async () => {
    owner = await signedInOwner();
    const rows: [string, string, string, number][] = [
      ['2026-01-01', 'bmi', SHOP, 1200],
      ['2026-01-01', 'tip', BLOG, 34],
      ['2026-01-03', 'bmi', BLOG, 5],
      ['2026-01-03', 'bmi', SHOP, 12_345],
    ];
    for (const [day, calcId, domain, loads] of rows)
      writeRows('INSERT INTO usage_daily VALUES (?, ?, ?, ?, ?)', owner.id, day, calcId, domain, loads);
    writeRows('INSERT INTO webhook_daily VALUES (?, ?, ?, ?, ?)', owner.id, '2026-01-01', 'bmi', 'ok', 1190);
    writeRows('INSERT INTO webhook_daily VALUES (?, ?, ?, ?, ?)', owner.id, '2026-01-01', 'bmi', 'timeout', 10);
  });

  const range = ['--from', '2026-01-01', '--to', '2026-01-03'];
  const quotaLine = () => `This month: 0 of 10 widget loads in ${thisMonth()} (0%).`;

  test('by day (the default): every day of the range, a total line, thousands separated', async () => {
    const result = await owner.calc('usage', ...range);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(
      [
        'Widget loads from 2026-01-01 to 2026-01-03 (UTC), by day:',
        '',
        'DATE         LOADS  WEBHOOK CALLS  FAILED',
        '2026-01-01   1,234          1,200      10',
        '2026-01-02       0              0       0',
        '2026-01-03  12,350              0       0',
        'TOTAL       13,584          1,200      10',
        '',
        quotaLine(),
        '',
      ].join('\n'),
    );
  });

  test('by calculator and by domain: the busiest first, with their share', async () => {
    const byCalculator = await owner.calc('usage', ...range, '--by', 'calculator');
    expect(byCalculator.exitCode).toBe(0);
    expect(byCalculator.stdout).toBe(
      [
        'Widget loads from 2026-01-01 to 2026-01-03 (UTC), by calculator:',
        '',
        'CALCULATOR   LOADS   SHARE  WEBHOOK CALLS  FAILED',
        'bmi         13,550   99.7%          1,200      10',
        'tip             34    0.3%              0       0',
        'TOTAL       13,584  100.0%          1,200      10',
        '',
        quotaLine(),
        '',
      ].join('\n'),
    );
    const byDomain = await owner.calc('usage', ...range, '--by', 'domain');
    expect(byDomain.exitCode).toBe(0);
    expect(byDomain.stdout).toBe(
      [
        'Widget loads from 2026-01-01 to 2026-01-03 (UTC), by domain:',
        '',
        'DOMAIN                 LOADS   SHARE',
        'https://shop.example  13,545   99.7%',
        'https://blog.example      39    0.3%',
        'TOTAL                 13,584  100.0%',
        '',
        quotaLine(),
        '',
      ].join('\n'),
    );
  });

  test('--json prints exactly the body of GET /v1/usage', async () => {
    const result = await owner.calc('usage', ...range, '--by', 'domain', '--json');
    expect(result.exitCode).toBe(0);
    const token = JSON.parse(await Bun.file(`${owner.configDir}/credentials.json`).text()).token as string;
    const direct = await fetch(`${session.url}/v1/usage?from=2026-01-01&to=2026-01-03`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(jsonOf(result.stdout)).toEqual(await direct.json());
    expect(jsonOf<{ total: number }>(result.stdout).total).toBe(13_584);
  });

  test('an empty range says so; bad values exit 1 with the server message, bad flags exit 2', async () => {
    const empty = await owner.calc('usage', '--from', '2025-06-01', '--to', '2025-06-30');
    expect(empty.exitCode).toBe(0);
    expect(empty.stdout).toBe(`No widget loads from 2025-06-01 to 2025-06-30 (UTC).\n\n${quotaLine()}\n`);
    const reversed = await owner.calc('usage', '--from', '2026-01-03', '--to', '2026-01-01');
    expect(reversed.exitCode).toBe(1);
    expect(reversed.stderr).toContain('must not be after');
    const unreal = await owner.calc('usage', '--from', '2026-02-30', '--json');
    expect(unreal.exitCode).toBe(1);
    expect(unreal.stdout).toBe('');
    expect(JSON.parse(unreal.stderr).error.code).toBe('invalid_request');
    expect((await owner.calc('usage', '--by', 'week')).exitCode).toBe(2);
  });

  test('without a sign-in it exits 4 and says to run calc login', async () => {
    const result = await session.calc(['usage'], { env: { CALC_CONFIG_DIR: join(owner.configDir, 'nobody') } });
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('calc login');
  });
});

describe('calc usage: calls turned away and pulls not made', () => {
  test('refused calls and skipped pulls per day and calculator, with their reasons below the table', async () => {
    const owner = await signedInOwner();
    writeRows('INSERT INTO usage_daily VALUES (?, ?, ?, ?, ?)', owner.id, '2026-02-01', 'bmi', SHOP, 10);
    writeRows('INSERT INTO webhook_daily VALUES (?, ?, ?, ?, ?)', owner.id, '2026-02-01', 'bmi', 'ok', 8);
    writeRows('INSERT INTO skipped_daily VALUES (?, ?, ?, ?, ?)', owner.id, '2026-02-01', 'bmi', 'capped', 2);
    for (const [day, calcId, reason, count] of [
      ['2026-02-01', 'bmi', 'cap_reached', 5],
      ['2026-02-02', 'tip', 'rate_limited', 3],
      ['2026-02-02', 'bmi', 'cap_reached', 1],
    ] as const)
      writeRows('INSERT INTO refused_daily VALUES (?, ?, ?, ?, ?)', owner.id, day, calcId, reason, count);
    const range = ['--from', '2026-02-01', '--to', '2026-02-02'];
    const notes = [
      'Refused widget calls: 9 (cap_reached 6, rate_limited 3).',
      'Skipped webhook pulls (no call made): 2 (capped 2).',
    ];
    const byDay = await owner.calc('usage', ...range);
    expect(byDay.exitCode).toBe(0);
    expect(byDay.stdout).toStartWith(
      [
        'Widget loads from 2026-02-01 to 2026-02-02 (UTC), by day:',
        '',
        'DATE        LOADS  REFUSED  WEBHOOK CALLS  FAILED  SKIPPED PULLS',
        '2026-02-01     10        5              8       0              2',
        '2026-02-02      0        4              0       0              0',
        'TOTAL          10        9              8       0              2',
        '',
        ...notes,
        '',
        'This month: ',
      ].join('\n'),
    );
    const byCalculator = await owner.calc('usage', ...range, '--by', 'calculator');
    expect(byCalculator.stdout).toContain(
      [
        'CALCULATOR  LOADS   SHARE  REFUSED  WEBHOOK CALLS  FAILED  SKIPPED PULLS',
        'bmi            10  100.0%        6              8       0              2',
        'tip             0    0.0%        3              0       0              0',
        'TOTAL          10  100.0%        9              8       0              2',
      ].join('\n'),
    );
    // By domain: refusals have no domain, so only the lines below the table name them.
    const byDomain = await owner.calc('usage', ...range, '--by', 'domain');
    expect(byDomain.stdout).toContain(
      ['DOMAIN                LOADS   SHARE', 'https://shop.example     10  100.0%'].join('\n'),
    );
    expect(byDomain.stdout).toContain(notes.join('\n'));
    // Only refusals in a range: still a table, not "no widget loads".
    const onlyRefused = await owner.calc('usage', '--from', '2026-02-02', '--to', '2026-02-02');
    expect(onlyRefused.stdout).toContain('2026-02-02      0        4');
    const json = jsonOf<{ refused: unknown[]; skipped: unknown[] }>(
      (await owner.calc('usage', ...range, '--json')).stdout,
    );
    expect(json.refused).toHaveLength(3);
    expect(json.skipped).toEqual([{ date: '2026-02-01', calcId: 'bmi', reason: 'capped', count: 2 }]);
  });
});

describe('calc usage --funnel', () => {
  test("a row per calculator and a total, each step beside its rate; narrowed; --json is the route's body", async () => {
    const owner = await signedInOwner();
    for (const [day, calcId, domain, event, count] of [
      ['2026-03-01', 'bmi', SHOP, 'view', 1500],
      ['2026-03-01', 'bmi', SHOP, 'start', 480],
      ['2026-03-02', 'bmi', SHOP, 'complete', 420],
      ['2026-03-02', 'bmi', SHOP, 'submit', 105],
      ['2026-03-02', 'bmi', BLOG, 'view', 500],
      ['2026-03-02', 'tip', BLOG, 'view', 40],
    ] as const)
      writeRows('INSERT INTO funnel_daily VALUES (?, ?, ?, ?, ?, ?)', owner.id, day, calcId, domain, event, count);
    const range = ['--from', '2026-03-01', '--to', '2026-03-02'];
    const legend =
      'STARTED = starts / views, COMPLETED = completes / starts, SUBMITTED = submits / completes; "-" where the step before counted nothing.';
    const all = await owner.calc('usage', '--funnel', ...range);
    expect(all.exitCode).toBe(0);
    expect(all.stdout).toBe(
      [
        'Funnel from 2026-03-01 to 2026-03-02 (UTC):',
        '',
        'CALCULATOR  VIEWS  STARTS  STARTED  COMPLETES  COMPLETED  SUBMITS  SUBMITTED',
        'bmi         2,000     480    24.0%        420      87.5%      105      25.0%',
        'tip            40       0     0.0%          0          -        0          -',
        'TOTAL       2,040     480    23.5%        420      87.5%      105      25.0%',
        '',
        legend,
        '',
      ].join('\n'),
    );
    const shop = await owner.calc('usage', '--funnel', ...range, '--calc', 'bmi', '--domain', 'https://Shop.Example');
    expect(shop.stdout).toBe(
      [
        'Funnel from 2026-03-01 to 2026-03-02 (UTC), calculator bmi on https://shop.example:',
        '',
        'CALCULATOR  VIEWS  STARTS  STARTED  COMPLETES  COMPLETED  SUBMITS  SUBMITTED',
        'bmi         1,500     480    32.0%        420      87.5%      105      25.0%',
        '',
        legend,
        '',
      ].join('\n'),
    );
    const json = await owner.calc('usage', '--funnel', ...range, '--calc', 'tip', '--json');
    expect(json.exitCode).toBe(0);
    const token = JSON.parse(await Bun.file(`${owner.configDir}/credentials.json`).text()).token as string;
    const direct = await fetch(`${session.url}/v1/usage/funnel?from=2026-03-01&to=2026-03-02&calcId=tip`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(jsonOf(json.stdout)).toEqual(await direct.json());
    expect(jsonOf<{ total: { views: number } }>(json.stdout).total.views).toBe(40);
    const empty = await owner.calc('usage', '--funnel', '--from', '2025-06-01', '--to', '2025-06-30');
    expect(empty.stdout).toBe(
      'No funnel steps from 2025-06-01 to 2025-06-30 (UTC). Widgets report them unless data-analytics="off" (docs/embedding.md).\n',
    );
    const wildcard = await owner.calc('usage', '--funnel', '--domain', 'https://*.shop.example');
    expect(wildcard.exitCode).toBe(1);
    expect(wildcard.stderr).toContain('not a wildcard');
    // --calc and --domain narrow the funnel only.
    expect((await owner.calc('usage', '--calc', 'bmi')).exitCode).toBe(2);
  });
});

describe('quota warnings in calc whoami and calc usage', () => {
  test('from 80 % on, and when the quota is used up', async () => {
    const owner = await signedInOwner();
    await owner.calc('domains', 'add', SHOP);
    for (let i = 0; i < 7; i++) expect(await load(owner.apiKey)).toBe(200);
    const quiet = await owner.calc('whoami');
    expect(quiet.stdout).toMatch(/Usage:\s+7 of 10 widget loads in \d{4}-\d{2} \(70%\)\n/);
    expect(quiet.stdout).not.toContain('Warning');

    expect(await load(owner.apiKey)).toBe(200);
    const warning = "Warning: 80% of this month's quota is used (8 of 10 loads).";
    expect((await owner.calc('whoami')).stdout).toContain(`\n\n${warning}\n`);
    expect((await owner.calc('usage')).stdout).toEndWith(
      `This month: 8 of 10 widget loads in ${thisMonth()} (80%).\n${warning}\n`,
    );

    expect(await load(owner.apiKey)).toBe(200);
    expect(await load(owner.apiKey)).toBe(200);
    expect(await load(owner.apiKey)).toBe(429);
    const spent = await owner.calc('whoami');
    expect(spent.stdout).toContain("Warning: this month's quota is used up (10 of 10 loads)");
    expect(spent.stdout).toContain('calculator unavailable');
    // Not a dead end on a self-hosted server: the operator's commands, for this account.
    expect(spent.stdout).toContain(`calc admin accounts set-plan --email ${owner.email} --plan base`);
    expect(spent.stdout).toContain('calc serve --quota-free N');
    expect((await owner.calc('usage')).stdout).toContain("this month's quota is used up");
    // Scripts get the body alone.
    const json = await owner.calc('whoami', '--json');
    expect(jsonOf<{ usage: { percent: number } }>(json.stdout).usage.percent).toBe(100);
    expect(json.stdout).not.toContain('Warning');
  });

  test("the day the quota runs out at the last 7 days' rate, when that is this month", async () => {
    const owner = await signedInOwner();
    const today = new Date();
    const day = (ago: number) => new Date(today.getTime() - ago * 86_400_000).toISOString().slice(0, 10);
    // An account ten days old whose last week ran at 11 loads a day: its 10 go today.
    writeRows(
      'UPDATE accounts SET created_at = ? WHERE id = ?',
      new Date(today.getTime() - 10 * 86_400_000).toISOString(),
      owner.id,
    );
    for (let ago = 1; ago <= 7; ago++)
      writeRows('INSERT INTO usage_daily VALUES (?, ?, ?, ?, ?)', owner.id, day(ago), 'bmi', SHOP, 11);
    const forecast = `At the last 7 days' rate the quota runs out on ${day(0)} (UTC)`;
    const whoami = await owner.calc('whoami');
    expect(whoami.stdout).toContain(forecast);
    expect(whoami.stdout).not.toContain('Warning');
    expect((await owner.calc('usage')).stdout).toContain(forecast);
  });
});
