/**
 * Counts failed sign-ins per key (an email, a client IP) in fixed windows, so password
 * guessing slows to `maxFailures` tries per window per email and per address.
 */
const MAX_KEYS = 100_000;

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
      // Callers choose the keys (any email): past the bound, drop expired windows, then
      // the oldest ones (a Map iterates in insertion order).
      if (windows.size > MAX_KEYS) {
        for (const key of windows.keys()) current(key);
        for (const key of windows.keys()) {
          if (windows.size <= MAX_KEYS) break;
          windows.delete(key);
        }
      }
    },

    /** Takes back one failure (an attempt charged up front that turned out right). */
    refund(key: string): void {
      const w = current(key);
      if (w && w.failures > 0) w.failures -= 1;
    },

    succeed(key: string): void {
      windows.delete(key);
    },
  };
}

export type LoginLimiter = ReturnType<typeof createLoginLimiter>;
