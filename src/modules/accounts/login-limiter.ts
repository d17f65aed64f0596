/**
 * Counts failed sign-ins per key (an email, a client IP) in fixed windows, so password
 * guessing slows to `maxFailures` tries per window per email and per address.
 */
export function createLoginLimiter({ maxFailures = 10, windowMs = 15 * 60 * 1000, now = () => Date.now() } = {}) {
  const windows = new Map<string, { startedAt: number; failures: number }>();

  const current = (key: string) => {
    const found = windows.get(key);
    if (found && now() - found.startedAt < windowMs) return found;
    windows.delete(key);
    return undefined;
  };

  return {
    /** Seconds until the first blocked key frees up, or null when none is blocked. */
    retryAfter(keys: string[]): number | null {
      let wait: number | null = null;
      for (const key of keys) {
        const w = current(key);
        if (w && w.failures >= maxFailures) {
          const seconds = Math.max(1, Math.ceil((w.startedAt + windowMs - now()) / 1000));
          wait = Math.max(wait ?? 0, seconds);
        }
      }
      return wait;
    },

    fail(keys: string[]): void {
      for (const key of keys) {
        const w = current(key);
        if (w) w.failures += 1;
        else windows.set(key, { startedAt: now(), failures: 1 });
      }
      // Bound memory under a flood of distinct keys: drop expired windows now and then.
      if (windows.size > 100_000) for (const key of windows.keys()) current(key);
    },

    succeed(key: string): void {
      windows.delete(key);
    },
  };
}

export type LoginLimiter = ReturnType<typeof createLoginLimiter>;
