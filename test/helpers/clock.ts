/** A clock the test moves by hand, for `testApp({ now: clock.now })`. */
export function manualClock(start = Date.parse('2026-11-25T08:00:00.000Z')) {
  let at = start;
  return {
    now: () => new Date(at),
    /** The time in whole seconds, as tokens and signatures carry it. */
    seconds: () => Math.floor(at / 1000),
    advance(ms: number) {
      at += ms;
    },
  };
}
