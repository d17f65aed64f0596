import { expect, test } from 'bun:test';
import { createLoginLimiter } from '../../../src/modules/accounts/login-limiter.ts';

test('blocks a key after maxFailures in a window, says how long, and lifts after it', () => {
  let now = 0;
  const limiter = createLoginLimiter({ maxFailures: 3, windowMs: 60_000, now: () => now });
  for (let i = 0; i < 3; i++) {
    expect(limiter.retryAfter(['ip:a'])).toBeNull();
    limiter.fail(['ip:a']);
  }
  now = 10_000;
  expect(limiter.retryAfter(['ip:a', 'email:x'])).toBe(50);
  expect(limiter.retryAfter(['ip:b'])).toBeNull();
  now = 60_001;
  expect(limiter.retryAfter(['ip:a'])).toBeNull();
});

test('a success clears the email key only', () => {
  const limiter = createLoginLimiter({ maxFailures: 1 });
  limiter.fail(['email:x', 'ip:a']);
  limiter.succeed('email:x');
  expect(limiter.retryAfter(['email:x'])).toBeNull();
  expect(limiter.retryAfter(['ip:a'])).not.toBeNull();
});
