/** Caps concurrent webhook calls: 8 per account, 512 in all (docs/webhooks.md, "Limits and failures"). */
export interface InFlightLimiter {
  /** A release function when a slot was free, else null (the caller reports `busy`). */
  tryAcquire(accountId: string): (() => void) | null;
  /** Calls in flight for one account, or in all when no account is given. */
  inFlight(accountId?: string): number;
}

/**
 * Creates a limiter of webhook calls in flight per account and in all, so a flood of
 * widget loads cannot turn the service into an amplifier against one endpoint.
 */
export function createInFlightLimiter(
  options: { perAccount: number; total: number } = { perAccount: 8, total: 512 },
): InFlightLimiter {
  const perAccount = new Map<string, number>();
  let total = 0;
  return {
    tryAcquire(accountId) {
      const current = perAccount.get(accountId) ?? 0;
      if (current >= options.perAccount || total >= options.total) return null;
      perAccount.set(accountId, current + 1);
      total += 1;
      let released = false;
      return () => {
        // Idempotent: a release called twice (finally + error path) must not free a
        // slot that another call holds.
        if (released) return;
        released = true;
        total -= 1;
        const left = (perAccount.get(accountId) ?? 1) - 1;
        if (left <= 0) perAccount.delete(accountId);
        else perAccount.set(accountId, left);
      };
    },
    inFlight(accountId) {
      return accountId === undefined ? total : (perAccount.get(accountId) ?? 0);
    },
  };
}
