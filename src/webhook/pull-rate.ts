/**
 * The owner's `pullsPerSecond` cap (docs/api.md, "Owner limits"): webhook pulls started
 * per account in the current second of the clock, on this server. A pull over the cap is
 * skipped (`capped`) and the load answers its defaults. One small entry per account that
 * has pulled under a cap, so memory is bounded by the accounts.
 */
export function createPullRate() {
  const seconds = new Map<string, { second: number; pulls: number }>();
  return {
    /** Takes one of `accountId`'s `perSecond` pulls of the second at `nowMs`; false when they are taken. */
    tryTake(accountId: string, perSecond: number, nowMs: number): boolean {
      const second = Math.floor(nowMs / 1000);
      const current = seconds.get(accountId);
      if (!current) {
        seconds.set(accountId, { second, pulls: 1 });
        return perSecond >= 1;
      }
      if (current.second !== second) {
        current.second = second;
        current.pulls = 0;
      }
      if (current.pulls >= perSecond) return false;
      current.pulls += 1;
      return true;
    },
  };
}

export type PullRate = ReturnType<typeof createPullRate>;
