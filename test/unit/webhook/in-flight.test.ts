import { describe, expect, test } from 'bun:test';
import { createInFlightLimiter } from '../../../src/webhook/in-flight.ts';

function acquireMany(
  limiter: ReturnType<typeof createInFlightLimiter>,
  accountId: string,
  count: number,
): (() => void)[] {
  const releases: (() => void)[] = [];
  for (let i = 0; i < count; i += 1) {
    const release = limiter.tryAcquire(accountId);
    if (release === null) throw new Error(`slot ${i} refused`);
    releases.push(release);
  }
  return releases;
}

describe('createInFlightLimiter', () => {
  test('defaults: 8 per account, 512 in all', () => {
    const limiter = createInFlightLimiter();
    acquireMany(limiter, 'a', 8);
    expect(limiter.tryAcquire('a')).toBeNull();
    for (let account = 1; account < 64; account += 1) acquireMany(limiter, `acct-${account}`, 8);
    expect(limiter.inFlight()).toBe(512);
    expect(limiter.tryAcquire('fresh')).toBeNull();
  });

  test.each([
    [
      { perAccount: 2, total: 10 },
      [
        ['a', 2],
        ['b', 2],
      ],
      'a',
      false,
    ],
    [{ perAccount: 2, total: 10 }, [['a', 1]], 'a', true],
    [
      { perAccount: 2, total: 3 },
      [
        ['a', 2],
        ['b', 1],
      ],
      'c',
      false,
    ],
    [{ perAccount: 2, total: 3 }, [['a', 2]], 'b', true],
    [{ perAccount: 8, total: 512 }, [['a', 8]], 'b', true],
    [{ perAccount: 1, total: 1 }, [], 'a', true],
    [{ perAccount: 0, total: 5 }, [], 'a', false],
  ] as const)('%j after %j: %s gets a slot=%p', (options, held, accountId, granted) => {
    const limiter = createInFlightLimiter(options);
    for (const [account, count] of held) acquireMany(limiter, account, count);
    expect(limiter.tryAcquire(accountId) !== null).toBe(granted);
  });

  test('release frees exactly one slot, for the account and in all', () => {
    const limiter = createInFlightLimiter({ perAccount: 2, total: 3 });
    const [first] = acquireMany(limiter, 'a', 2);
    acquireMany(limiter, 'b', 1);
    expect(limiter.tryAcquire('a')).toBeNull();
    expect(limiter.tryAcquire('c')).toBeNull();
    first?.();
    expect(limiter.inFlight('a')).toBe(1);
    expect(limiter.inFlight()).toBe(2);
    expect(limiter.tryAcquire('c')).not.toBeNull();
    expect(limiter.tryAcquire('a')).toBeNull();
  });

  test('a second release of the same slot is a no-op', () => {
    const limiter = createInFlightLimiter({ perAccount: 2, total: 2 });
    const [first] = acquireMany(limiter, 'a', 2);
    first?.();
    first?.();
    expect(limiter.inFlight('a')).toBe(1);
    expect(limiter.inFlight()).toBe(1);
    expect(limiter.tryAcquire('a')).not.toBeNull();
    expect(limiter.tryAcquire('a')).toBeNull();
  });

  test('an account with nothing in flight holds no state', () => {
    const limiter = createInFlightLimiter();
    const releases = acquireMany(limiter, 'a', 3);
    for (const release of releases) release();
    expect(limiter.inFlight('a')).toBe(0);
    expect(limiter.inFlight()).toBe(0);
    acquireMany(limiter, 'a', 8);
  });
});
