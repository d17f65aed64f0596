import { describe, expect, test } from 'bun:test';
import { openPostgres } from '../../../src/db/postgres/client.ts';
import { createPgLoginLimiter } from '../../../src/db/postgres/login-limiter.ts';
import { createLoginLimiter, type LoginLimiter, type SignInLimits } from '../../../src/limits/login-limiter.ts';
import { usePostgres } from '../../helpers/postgres.ts';

const OWNER = 'owner@shop.example';

const pg = usePostgres();

/** Successful sign-ins: the defaults (10 a minute per account, 30 per address). */
const SIGN_INS: SignInLimits = { perAccount: 10, perAddress: 30 };

/** The in-memory limiter of one server, and the shared one in a fresh PostgreSQL database. */
const KINDS: Record<string, (now: () => number, signIns?: SignInLimits) => Promise<LoginLimiter & AsyncDisposable>> = {
  memory: async (now, signIns) => ({ ...createLoginLimiter({ now, signIns }), [Symbol.asyncDispose]: async () => {} }),
  postgres: async (now, signIns) => {
    const opened = await openPostgres(await pg().createDatabase());
    return { ...createPgLoginLimiter(opened.db, now, signIns), [Symbol.asyncDispose]: () => opened.close() };
  },
};

/** A right password: the attempt, then the success; the seconds to wait when either refuses. */
async function signIn(limiter: LoginLimiter, email: string, address: string): Promise<number | null> {
  return (await limiter.attempt(email, address)) ?? (await limiter.succeeded(email, address));
}

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

    test('a cancelled attempt (the server too busy to check it) is taken back from the pair and the address', async () => {
      await using limiter = await make(() => 1000);
      for (let i = 0; i < 10; i++) expect(await limiter.attempt(OWNER, '203.0.113.9')).toBeNull();
      expect(await limiter.attempt(OWNER, '203.0.113.9')).not.toBeNull();
      await limiter.cancelled(OWNER, '203.0.113.9');
      expect(await limiter.attempt(OWNER, '203.0.113.9')).toBeNull();
      expect(await limiter.attempt(OWNER, '203.0.113.9')).not.toBeNull();
    });

    test('10 sign-ins a minute per account, from any addresses; the 11th waits for the next minute', async () => {
      let now = 15_000;
      await using limiter = await make(() => now, SIGN_INS);
      for (let i = 0; i < 10; i++) expect(await signIn(limiter, OWNER, `203.0.113.${i}`)).toBeNull();
      expect(await signIn(limiter, OWNER, '198.51.100.1')).toBe(45);
      // Refused before the password is checked, and nothing charged: other accounts sign in.
      expect(await signIn(limiter, 'other@shop.example', '203.0.113.1')).toBeNull();
      now = 60_000;
      expect(await signIn(limiter, OWNER, '198.51.100.1')).toBeNull();
    });

    test('30 sign-ins a minute per address, over any accounts', async () => {
      let now = 0;
      await using limiter = await make(() => now, SIGN_INS);
      for (let i = 0; i < 30; i++) expect(await signIn(limiter, `user${i}@shop.example`, '203.0.113.9')).toBeNull();
      expect(await signIn(limiter, OWNER, '203.0.113.9')).toBe(60);
      expect(await signIn(limiter, OWNER, '203.0.113.10')).toBeNull();
      now = 60_000;
      expect(await signIn(limiter, OWNER, '203.0.113.9')).toBeNull();
    });

    test('sign-ins that passed the check together: exactly the limit succeed', async () => {
      await using limiter = await make(() => 1000, SIGN_INS);
      // 16 attempts pass the check before any success is counted (as parallel sign-ins do).
      const addresses = Array.from({ length: 16 }, (_, i) => `203.0.113.${i}`);
      for (const address of addresses) expect(await limiter.attempt(OWNER, address)).toBeNull();
      const answers = await Promise.all(addresses.map((address) => limiter.succeeded(OWNER, address)));
      expect(answers.filter((wait) => wait === null)).toHaveLength(10);
      expect(answers.filter((wait) => wait === 59)).toHaveLength(6);
    });

    test('failed sign-ins are not sign-ins; 0 turns a sign-in limit off', async () => {
      await using limiter = await make(() => 1000, { perAccount: 0, perAddress: 2 });
      for (let i = 0; i < 5; i++) expect(await limiter.attempt(OWNER, '203.0.113.9')).toBeNull();
      expect(await signIn(limiter, OWNER, '203.0.113.9')).toBeNull();
      expect(await signIn(limiter, OWNER, '203.0.113.9')).toBeNull();
      expect(await signIn(limiter, OWNER, '203.0.113.9')).toBe(59);
      for (let i = 0; i < 20; i++) expect(await signIn(limiter, OWNER, `198.51.100.${i}`)).toBeNull();
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

test('postgres: a server remembers a sign-in count at its limit, so refusals cost no transaction until the minute ends', async () => {
  let now = 15_000;
  const opened = await openPostgres(await pg().createDatabase());
  const limiter = createPgLoginLimiter(opened.db, () => now, SIGN_INS);
  try {
    for (let i = 0; i < 10; i++)
      expect(
        (await limiter.attempt(OWNER, `203.0.113.${i}`)) ?? (await limiter.succeeded(OWNER, `203.0.113.${i}`)),
      ).toBeNull();
  } finally {
    await opened.close();
  }
  // The database is gone: the refusal still answers, from what this server remembers.
  expect(await limiter.attempt(OWNER, '198.51.100.1')).toBe(45);
  now = 60_000;
  // A new minute: the database is asked again (and is not there).
  await expect(limiter.attempt(OWNER, '198.51.100.1')).rejects.toThrow();
});
