import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { jsonOf, startCliSession, type CliSession } from '../helpers/cli-session.ts';

// Every test starts processes; a loaded machine must not turn that into a failure.
setDefaultTimeout(60_000);

const SHOP = 'https://shop.example';

let session: CliSession;
beforeAll(async () => {
  session = await startCliSession();
}, 30_000);
afterAll(() => session[Symbol.asyncDispose]());

async function signedInOwner() {
  const owner = await session.signedIn();
  return { ...owner, calc: (...args: string[]) => session.calc(args, { env: owner.env }) };
}

const NO_LIMITS = { loadsPerDay: null, loadsPerDayPerDomain: null, pullsPerSecond: null, registerDomain: true };

describe('calc limits', () => {
  test('shows, sets and clears the limits, in words and with --json', async () => {
    const owner = await signedInOwner();
    const shown = await owner.calc('limits');
    expect(shown.exitCode).toBe(0);
    expect(shown.stdout).toBe(
      [
        'Loads a day:             no cap',
        'Loads a day per domain:  no cap',
        'Pulls a second:          no cap',
        'Register-domain:         on (pages may ask to be added)',
        '',
      ].join('\n'),
    );
    expect(jsonOf((await owner.calc('limits', '--json')).stdout)).toEqual({ limits: NO_LIMITS });

    const set = await owner.calc(
      'limits',
      'set',
      '--loads-per-day',
      '5000',
      '--loads-per-day-per-domain',
      '500',
      '--pulls-per-second',
      '20',
      '--register-domain',
      'off',
    );
    expect(set.exitCode).toBe(0);
    expect(set.stdout).toBe(
      [
        'Loads a day:             5,000 a UTC day, in all',
        'Loads a day per domain:  500 a UTC day from each page origin',
        'Pulls a second:          20 webhook pulls a second, per server',
        'Register-domain:         off (pages cannot ask to be added)',
        '',
      ].join('\n'),
    );
    const cleared = await owner.calc('limits', 'clear', 'loads-per-day-per-domain', '--json');
    expect(cleared.exitCode).toBe(0);
    expect(jsonOf(cleared.stdout)).toEqual({
      limits: { loadsPerDay: 5000, loadsPerDayPerDomain: null, pullsPerSecond: 20, registerDomain: false },
    });
    const on = await owner.calc('limits', 'clear', 'register-domain');
    expect(on.stdout).toContain('Register-domain:         on');
    const one = jsonOf<{ limits: unknown }>(
      (await owner.calc('limits', 'set', '--pulls-per-second', '3', '--json')).stdout,
    );
    expect(one).toEqual({ limits: { ...NO_LIMITS, loadsPerDay: 5000, pullsPerSecond: 3 } });
  });

  test('bad input: no limit named exits 1, a value below 1 or an unknown name exits 2; nothing changes', async () => {
    const owner = await signedInOwner();
    const none = await owner.calc('limits', 'set', '--json');
    expect(none.exitCode).toBe(1);
    expect(none.stdout).toBe('');
    expect(JSON.parse(none.stderr).error.code).toBe('invalid_flag');
    expect((await owner.calc('limits', 'set', '--loads-per-day', '0')).exitCode).toBe(2);
    expect((await owner.calc('limits', 'set', '--loads-per-day', 'lots')).exitCode).toBe(2);
    expect((await owner.calc('limits', 'set', '--register-domain', 'maybe')).exitCode).toBe(2);
    expect((await owner.calc('limits', 'clear', 'quota')).exitCode).toBe(2);
    // Past what the server takes: its message, exit 1.
    const huge = await owner.calc('limits', 'set', '--loads-per-day', '3000000000');
    expect(huge.exitCode).toBe(1);
    expect(huge.stderr).toContain('loadsPerDay');
    expect(jsonOf((await owner.calc('limits', '--json')).stdout)).toEqual({ limits: NO_LIMITS });
  });

  test('a cap that turns visitors away shows in calc usage', async () => {
    const owner = await signedInOwner();
    await owner.calc('domains', 'add', SHOP);
    await owner.calc('limits', 'set', '--loads-per-day', '1');
    const load = () =>
      fetch(`${session.url}/v1/widget/load`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: SHOP },
        body: JSON.stringify({ apiKey: owner.apiKey, domain: SHOP, calcId: 'bmi' }),
      });
    expect((await load()).status).toBe(200);
    const refused = await load();
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('cap_reached');
    expect((await owner.calc('usage')).stdout).toContain('Refused widget calls: 1 (cap_reached 1).');
  });

  test('without a sign-in it exits 4', async () => {
    const result = await session.calc(['limits'], { env: { CALC_CONFIG_DIR: '/nonexistent-calc-config' } });
    expect(result.exitCode).toBe(4);
  });
});
