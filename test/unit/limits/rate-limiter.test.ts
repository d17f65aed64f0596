import { describe, expect, test } from 'bun:test';
import { clientGroup } from '../../../src/limits/client-group.ts';
import { createRateLimiter } from '../../../src/limits/rate-limiter.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
// A Tuesday, 10:00:00 UTC: windows are aligned to the minute and to the UTC day.
const START = Date.UTC(2026, 2, 3, 10, 0, 0);

function limiterAt(
  windows = [
    { ms: MINUTE, limit: 120 },
    { ms: DAY, limit: 2_000 },
  ],
) {
  const clock = { now: START };
  return { clock, limiter: createRateLimiter({ windows, now: () => clock.now }) };
}

describe('rate limiter windows', () => {
  test('exactly the limit per minute passes; the next is refused with the seconds left, then the next minute opens', () => {
    const { clock, limiter } = limiterAt();
    for (let i = 0; i < 120; i++) expect(limiter.take('a')).toBeNull();
    clock.now = START + 45_000;
    expect(limiter.take('a')).toBe(15);
    expect(limiter.take('a')).toBe(15);
    clock.now = START + MINUTE - 1;
    expect(limiter.take('a')).toBe(1);
    clock.now = START + MINUTE;
    expect(limiter.take('a')).toBeNull();
  });

  test('refused hits are not counted: the day window holds exactly its limit', () => {
    const { clock, limiter } = limiterAt();
    let passed = 0;
    // 120 a minute for 17 minutes reaches 2,000 in the 17th minute, refusing the rest.
    for (let minute = 0; minute < 17; minute++) {
      clock.now = START + minute * MINUTE;
      for (let i = 0; i < 130; i++) if (limiter.take('a') === null) passed++;
    }
    expect(passed).toBe(2_000);
    clock.now = START + 20 * MINUTE;
    const tomorrow = Date.UTC(2026, 2, 4);
    expect(limiter.take('a')).toBe((tomorrow - clock.now) / 1000);
    clock.now = tomorrow - 1;
    expect(limiter.take('a')).toBe(1);
    clock.now = tomorrow;
    expect(limiter.take('a')).toBeNull();
  });

  test('keys are counted apart', () => {
    const { limiter } = limiterAt([{ ms: MINUTE, limit: 2 }]);
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([null, null, 60]);
    expect([limiter.take('b'), limiter.take('b'), limiter.take('b')]).toEqual([null, null, 60]);
  });

  test('check counts nothing; add counts past the limit; refund and reset take back', () => {
    const { limiter } = limiterAt([{ ms: MINUTE, limit: 2 }]);
    expect(limiter.check('a')).toBeNull();
    limiter.add('a');
    limiter.add('a');
    limiter.add('a');
    expect(limiter.check('a')).toBe(60);
    limiter.refund('a');
    expect(limiter.check('a')).toBe(60);
    limiter.refund('a');
    expect(limiter.check('a')).toBeNull();
    limiter.add('a');
    limiter.reset('a');
    expect(limiter.take('a')).toBeNull();
    expect(limiter.take('a')).toBeNull();
    expect(limiter.take('a')).toBe(60);
  });

  test('a window with limit 0 is off', () => {
    const { limiter } = limiterAt([{ ms: MINUTE, limit: 0 }]);
    for (let i = 0; i < 10_000; i++) expect(limiter.take('a')).toBeNull();
    expect(limiter.size).toBe(0);
  });
});

describe('rate limiter memory', () => {
  test('100,000 distinct clients keep at most `capacity` keys, dropping the least recently used under their limits', () => {
    const clock = { now: START };
    const limiter = createRateLimiter({ windows: [{ ms: MINUTE, limit: 2 }], capacity: 10_000, now: () => clock.now });
    // Over its limit, and never used again: still never dropped.
    limiter.take('limited');
    limiter.take('limited');
    for (let i = 0; i < 100_000; i++) {
      expect(limiter.take(`198.51.${(i >> 8) & 255}.${i & 255}|${i}`)).toBeNull();
      if (i % 1000 === 0) expect(limiter.check('limited')).toBe(60);
      expect(limiter.size).toBeLessThanOrEqual(10_000);
    }
    expect(limiter.size).toBe(10_000);
    expect(limiter.take('limited')).toBe(60);
    // The oldest client under its limit was dropped: it starts again (two hits pass, not one).
    expect([limiter.take('198.51.0.0|0'), limiter.take('198.51.0.0|0'), limiter.take('198.51.0.0|0')]).toEqual([
      null,
      null,
      60,
    ]);
    // Once its window has ended, the limited client is like any other: it may make room.
    clock.now = START + MINUTE;
    for (let i = 0; i < 20_000; i++) limiter.take(`next ${i}`);
    expect(limiter.takeHeld('limited')).toBeUndefined();
    // 100,000 clients: more than bun's 5 s default on a busy machine.
  }, 60_000);

  test('full of limited clients: a new one is refused until the first window ends; none is forgotten', () => {
    const clock = { now: START + 15_000 };
    const limiter = createRateLimiter({
      windows: [
        { ms: MINUTE, limit: 1 },
        { ms: DAY, limit: 5 },
      ],
      capacity: 100,
      now: () => clock.now,
    });
    for (let i = 0; i < 100; i++) expect(limiter.take(`client ${i}`)).toBeNull();
    // 1,000 newcomers: each refused with the seconds to the minute's end; nothing counted.
    for (let i = 0; i < 1000; i++) expect(limiter.take(`new ${i}`)).toBe(45);
    expect(limiter.add('new 0')).toBe(45);
    expect(limiter.size).toBe(100);
    for (let i = 0; i < 100; i++) expect(limiter.take(`client ${i}`)).toBe(45);
    // The minute is over: the old clients are under their limits again and make room.
    clock.now = START + MINUTE;
    expect(limiter.take('new 0')).toBeNull();
    expect(limiter.size).toBe(100);
  });

  test('a few limited clients among many: newcomers always find room, the limited stay', () => {
    const clock = { now: START };
    const limiter = createRateLimiter({ windows: [{ ms: MINUTE, limit: 2 }], capacity: 1_000, now: () => clock.now });
    // The 500 oldest clients are limited, the 500 newest are not.
    for (let i = 0; i < 500; i++) limiter.take(`limited ${i}`);
    for (let i = 0; i < 500; i++) limiter.take(`limited ${i}`);
    for (let i = 0; i < 500; i++) limiter.take(`open ${i}`);
    for (let i = 0; i < 10_000; i++) expect(limiter.take(`new ${i}`)).toBeNull();
    expect(limiter.size).toBe(1_000);
    for (let i = 0; i < 500; i++) expect(limiter.take(`limited ${i}`)).toBe(60);
  });

  test('takeHeld counts only keys the limiter holds', () => {
    const { limiter } = limiterAt([{ ms: MINUTE, limit: 2 }]);
    expect(limiter.takeHeld('a')).toBeUndefined();
    expect(limiter.size).toBe(0);
    expect(limiter.take('a')).toBeNull();
    expect([limiter.takeHeld('a'), limiter.takeHeld('a')]).toEqual([null, 60]);
  });

  test('the default capacity holds 100,000 clients in a bounded heap', () => {
    const limiter = createRateLimiter({
      windows: [
        { ms: MINUTE, limit: 120 },
        { ms: DAY, limit: 2_000 },
      ],
      now: () => START,
    });
    Bun.gc(true);
    const before = process.memoryUsage().heapUsed;
    // 150,000 clients, each with a 27-character API key: more than the default capacity.
    for (let i = 0; i < 150_000; i++)
      limiter.take(`${clientGroup(`2001:db8:${i.toString(16)}::1`)} pk_${'x'.repeat(24)}`);
    Bun.gc(true);
    const grown = process.memoryUsage().heapUsed - before;
    expect(limiter.size).toBe(100_000);
    // About 200 bytes a key, so 100,000 keys stay well under 40 MB.
    expect(grown).toBeLessThan(40 * 1024 * 1024);
    // 150,000 keys: more than bun's 5 s default on a busy machine.
  }, 60_000);
});

describe('client groups', () => {
  test.each([
    ['IPv4 as is', '203.0.113.9', '203.0.113.9'],
    ['IPv6 by its /64', '2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['the same /64, written differently', '2001:0db8:0001:0002::ffff', '2001:db8:1:2::/64'],
    ['IPv4-mapped IPv6 as the IPv4 address', '::ffff:203.0.113.9', '203.0.113.9'],
    ['loopback', '::1', '0:0:0:0::/64'],
    ['garbage as written', 'unknown', 'unknown'],
  ])('%s', (_name, address, group) => {
    expect(clientGroup(address)).toBe(group);
  });
});
