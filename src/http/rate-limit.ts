import type { RateSettings } from '../config.ts';
import { rateLimited } from '../errors.ts';
import { clientGroup } from '../limits/client-group.ts';
import { createRateLimiter, type RateLimiter } from '../limits/rate-limiter.ts';
import { DAY_MS } from '../usage/counter.ts';

const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;

export interface RateLimitDeps {
  rates: RateSettings;
  /** The client's address (the socket's, or X-Forwarded-For's from a trusted proxy). */
  clientIp: (request: Request) => string;
  now: () => Date;
}

/**
 * The widget routes' per-client limit, taken by the widget service around its key lookup.
 * A call counts per (client address, API key) once the key is known to be valid, so that
 * a stranger holding a page's public key cannot spend the owner's quota or flood the
 * owner's webhook, while visitors of that page (other addresses) and other keys stay
 * unaffected. A call with an unknown key counts per client address alone, in one bucket
 * with the same limits: made-up keys never add entries, so they cannot crowd a limited
 * client's count out of the limiter (which never drops a limited client anyway).
 */
export interface WidgetLimit {
  /** The client a request counts for: its address, an IPv6 one by its /64. */
  clientOf(request: Request): string;
  /**
   * Before the key is looked up. When the limiter holds this client's count for this key
   * (the key was found valid before), counts the call and answers true, or refuses it
   * (429) past a limit: a flood on a valid key costs no lookup. False when the call is
   * to be counted after the lookup, by `count`.
   */
  held(client: string, apiKey: string): boolean;
  /** After the lookup: counts the call for (client, key) when the key is valid, else for the client's unknown-key bucket; 429 past a limit. */
  count(client: string, apiKey: string, valid: boolean): void;
}

/** The widget limit, or null when both its limits are 0; and its limiter (for the memory bound's tests). */
export function widgetRateLimit(deps: RateLimitDeps): { limiter: RateLimiter; limit: WidgetLimit | null } {
  const limiter = createRateLimiter({
    windows: [
      { ms: MINUTE_MS, limit: deps.rates.widgetPerMinute },
      { ms: DAY_MS, limit: deps.rates.widgetPerDay },
    ],
    capacity: deps.rates.clientsMax,
    now: () => deps.now().getTime(),
  });
  const off = deps.rates.widgetPerMinute === 0 && deps.rates.widgetPerDay === 0;
  // A client address never holds a space, so "<client> <key>" and "<client>" never meet.
  const limit: WidgetLimit = {
    clientOf: (request) => clientGroup(deps.clientIp(request)),
    held(client, apiKey) {
      const wait = limiter.takeHeld(`${client} ${apiKey}`);
      if (wait === undefined) return false;
      if (wait !== null) throw rateLimited('Too many widget requests from this address for this API key.', wait);
      return true;
    },
    count(client, apiKey, valid) {
      const wait = limiter.take(valid ? `${client} ${apiKey}` : client);
      if (wait === null) return;
      throw rateLimited(
        valid
          ? 'Too many widget requests from this address for this API key.'
          : 'Too many widget requests with unknown API keys from this address.',
        wait,
      );
    },
  };
  return { limiter, limit: off ? null : limit };
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
