/**
 * When a failed delivery is tried again (docs/results.md, "Retries"): about 5 s, 5 min,
 * 30 min, 2 h, 5 h, 10 h, 10 h after the attempts before, then every 10 h, each wait drawn
 * within ±10 % so that many events failing together do not return together. An event not
 * delivered within three days of its creation is given up; an endpoint that delivered
 * nothing for five days is disabled. The operator's scale multiplies all of these.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const WAITS_MS = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR] as const;
const LAST_WAIT_MS = 10 * HOUR;
const JITTER = 0.1;
const GIVE_UP_AFTER_MS = 3 * DAY;
const DISABLE_AFTER_MS = 5 * DAY;

export interface RetrySchedule {
  /** The wait after failed attempt `attempt` (1 = the first), jitter included. */
  waitAfter(attempt: number): number;
  /** How long after its creation an event is still tried. */
  giveUpAfterMs: number;
  /** How long an endpoint may fail without a single delivery before it is disabled. */
  disableAfterMs: number;
}

/** The schedule with every duration multiplied by `scale`; `random` draws the jitter. */
export function retrySchedule(scale = 1, random: () => number = Math.random): RetrySchedule {
  return {
    waitAfter(attempt) {
      const base = WAITS_MS[attempt - 1] ?? LAST_WAIT_MS;
      return Math.round(base * scale * (1 - JITTER + 2 * JITTER * random()));
    },
    giveUpAfterMs: GIVE_UP_AFTER_MS * scale,
    disableAfterMs: DISABLE_AFTER_MS * scale,
  };
}

/** The waits without jitter, for the documentation and the tests that walk the schedule. */
export const NOMINAL_WAITS_MS: readonly number[] = WAITS_MS;
