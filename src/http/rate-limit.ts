import type { RateSettings } from '../config.ts';
import { rateLimited } from '../errors.ts';
import { clientGroup } from '../limits/client-group.ts';
import { createRateLimiter, type RateLimiter } from '../limits/rate-limiter.ts';
import { DAY_MS } from '../usage/counter.ts';
import type { GroupConcern } from './route-group.ts';

const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;

export interface RateLimitDeps {
  rates: RateSettings;
  /** The client's address (the socket's, or X-Forwarded-For's from a trusted proxy). */
  clientIp: (request: Request) => string;
  now: () => Date;
}

/**
 * The widget routes' per-client limit: per (client address, API key), so that a stranger
 * holding a page's public key cannot spend the owner's quota or flood the owner's webhook,
 * while visitors of that page (other addresses) and other keys stay unaffected. A concern
 * of the widget group: it runs after the body's shape is checked (the key is in the body)
 * and before anything is looked up or counted. No concern at all when both limits are 0.
 */
export function widgetRateLimit(deps: RateLimitDeps): { limiter: RateLimiter; concern: GroupConcern | null } {
  const limiter = createRateLimiter({
    windows: [
      { ms: MINUTE_MS, limit: deps.rates.widgetPerMinute },
      { ms: DAY_MS, limit: deps.rates.widgetPerDay },
    ],
    now: () => deps.now().getTime(),
  });
  const off = deps.rates.widgetPerMinute === 0 && deps.rates.widgetPerDay === 0;
  return {
    limiter,
    concern: off
      ? null
      : {
          name: 'widget-rate-limit',
          before(request, body) {
            // Every widget route's schema requires a string apiKey; a preflight has no body.
            const apiKey = (body as { apiKey?: unknown } | undefined)?.apiKey;
            if (typeof apiKey !== 'string') return;
            const wait = limiter.take(`${clientGroup(deps.clientIp(request))} ${apiKey}`);
            if (wait !== null) throw rateLimited('Too many widget requests from this address for this API key.', wait);
          },
        },
  };
}

/** Sign-ups per client address: each costs a password hash and a row. */
export function signupRateLimit(deps: RateLimitDeps): { check(request: Request): void } {
  const limiter = createRateLimiter({
    windows: [{ ms: HOUR_MS, limit: deps.rates.signupPerHour }],
    now: () => deps.now().getTime(),
  });
  return {
    check(request) {
      const wait = limiter.take(clientGroup(deps.clientIp(request)));
      if (wait !== null) throw rateLimited('Too many sign-ups from this address.', wait);
    },
  };
}
