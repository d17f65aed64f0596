import { describe, expect, test } from 'bun:test';
import { openPostgres } from '../../../src/db/postgres/client.ts';
import { createPgLoginLimiter } from '../../../src/db/postgres/login-limiter.ts';
import { createLoginLimiter, type LoginLimiter } from '../../../src/limits/login-limiter.ts';
import { usePostgres } from '../../helpers/postgres.ts';

const OWNER = 'owner@shop.example';

const pg = usePostgres();

/** The in-memory limiter of one server, and the shared one in a fresh PostgreSQL database. */
const KINDS: Record<string, (now: () => number) => Promise<LoginLimiter & AsyncDisposable>> = {
  memory: async (now) => ({ ...createLoginLimiter({ now }), [Symbol.asyncDispose]: async () => {} }),
  postgres: async (now) => {
    const opened = await openPostgres(await pg().createDatabase());
    return { ...createPgLoginLimiter(opened.db, now), [Symbol.asyncDispose]: () => opened.close() };
  },
};

for (const [kind, make] of Object.entries(KINDS)) {
  describe(`login limiter (${kind})`, () => {
    test('10 failures per (email, address) block that pair only, with the time left, and lift after 15 minutes', async () => {
      let now = 0;
      await using limiter = await make(() => now);
      for (let i = 0; i < 10; i++) expect(await limiter.attempt(OWNER, '203.0.113.9')).toBeNull();
      now = 60_000;
      expect(await limiter.attempt(OWNER, '203.0.113.9')).toBe(14 * 60);
      // The owner, from another address, is not locked out; the attacker may try other emails.
      expect(await limiter.attempt(OWNER, '198.51.100.1')).toBeNull();
      expect(await limiter.attempt('other@shop.example', '203.0.113.9')).toBeNull();
      now = 15 * 60 * 1000;
      expect(await limiter.attempt(OWNER, '203.0.113.9')).toBeNull();
    });

    test('refused attempts are not charged', async () => {
      let now = 0;
      await using limiter = await make(() => now);
      for (let i = 0; i < 10; i++) await limiter.attempt(OWNER, '203.0.113.9');
      for (let i = 0; i < 100; i++) expect(await limiter.attempt(OWNER, '203.0.113.9')).not.toBeNull();
      // 100 refused tries did not reach the 50 per address: other emails from it still pass.
      expect(await limiter.attempt('other@shop.example', '203.0.113.9')).toBeNull();
      now = 15 * 60 * 1000;
      expect(await limiter.attempt(OWNER, '203.0.113.9')).toBeNull();
    });

    test('50 failures per address over any emails block that address for every email', async () => {
      await using limiter = await make(() => 1000);
      for (let i = 0; i < 50; i++) expect(await limiter.attempt(`user${i}@shop.example`, '203.0.113.9')).toBeNull();
      expect(await limiter.attempt(OWNER, '203.0.113.9')).not.toBeNull();
      expect(await limiter.attempt(OWNER, '203.0.113.10')).toBeNull();
    });

    test('an IPv6 client counts by its /64', async () => {
      await using limiter = await make(() => 1000);
      for (let i = 0; i < 10; i++) await limiter.attempt(OWNER, `2001:db8:1:2::${i + 1}`);
      expect(await limiter.attempt(OWNER, '2001:db8:1:2:ffff::1')).not.toBeNull();
      expect(await limiter.attempt(OWNER, '2001:db8:1:3::1')).toBeNull();
    });

    test('a success clears the pair and takes back the charge on the address', async () => {
      await using limiter = await make(() => 1000);
      for (let i = 0; i < 9; i++) await limiter.attempt(OWNER, '203.0.113.9');
      for (let i = 0; i < 40; i++) await limiter.attempt(`user${i}@shop.example`, '203.0.113.9');
      expect(await limiter.attempt(OWNER, '203.0.113.9')).toBeNull();
      // 10 on the pair and 50 on the address: both full.
      expect(await limiter.attempt('x@shop.example', '203.0.113.9')).not.toBeNull();
      await limiter.succeeded(OWNER, '203.0.113.9');
      expect(await limiter.attempt(OWNER, '203.0.113.9')).toBeNull();
    });
  });
}

test("postgres: a parallel burst through two servers' limiters on one database gets exactly 10 tries", async () => {
  const url = await pg().createDatabase();
  const [a, b] = await Promise.all([openPostgres(url), openPostgres(url)]);
  try {
    const limiters = [createPgLoginLimiter(a.db, () => 1000), createPgLoginLimiter(b.db, () => 1000)];
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (limiters[i % 2] as LoginLimiter).attempt(OWNER, '203.0.113.9')),
    );
    expect(answers.filter((wait) => wait === null)).toHaveLength(10);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});
