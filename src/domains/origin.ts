import { invalidRequest } from '../errors.ts';

export interface NormalisedOrigin {
  /** `scheme://host[:port]`, lower case, IDN as punycode, default port dropped. */
  origin: string;
  /** A leading `*.` label: matches subdomains at any depth, not the bare domain. */
  wildcard: boolean;
}

const MAX_ORIGIN_LENGTH = 300;

/**
 * Parses an origin as site owners type it (`https://Shop.Example/`, `https://bücher.example`,
 * `https://*.shop.example`) into its one stored spelling, or throws 400 `invalid_request`.
 */
export function normaliseOrigin(raw: string): NormalisedOrigin {
  const known = recent.get(raw);
  if (known) return known;
  const parsed = parseOrigin(raw);
  // Widget requests repeat the same few origins: remember them (bounded; cleared when full).
  if (recent.size >= RECENT_LIMIT) recent.clear();
  recent.set(raw, Object.freeze(parsed));
  return parsed;
}

const RECENT_LIMIT = 10_000;
const recent = new Map<string, NormalisedOrigin>();

function parseOrigin(raw: string): NormalisedOrigin {
  if (raw.length > MAX_ORIGIN_LENGTH) throw invalidRequest(`domain must be at most ${MAX_ORIGIN_LENGTH} characters.`);
  // Characters the URL parser would silently drop or reinterpret: refuse instead of guessing.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point of this check
  if (/[\s\\@?#\u0000-\u001f\u007f]/u.test(raw)) {
    throw invalidRequest(
      'domain must be an origin such as https://shop.example (no path, query, fragment or user info).',
    );
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidRequest(`domain "${truncate(raw)}" is not an origin such as https://shop.example.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw invalidRequest('domain must start with http:// or https://.');
  if (url.pathname !== '/' && url.pathname !== '')
    throw invalidRequest('domain must be an origin without a path, such as https://shop.example.');
  if (!/^https?:\/\/[^/]+\/?$/i.test(raw))
    throw invalidRequest('domain must be an origin without a path, such as https://shop.example.');
  const host = url.hostname;
  if (host === '') throw invalidRequest('domain has no host.');
  const wildcard = host.startsWith('*.');
  const rest = wildcard ? host.slice(2) : host;
  if (rest.includes('*'))
    throw invalidRequest('a wildcard is only allowed as the whole first label, as in https://*.shop.example.');
  if (wildcard && (rest.replace(/\.$/, '').split('.').length < 2 || rest.startsWith('[') || /^[\d.]+$/.test(rest))) {
    throw invalidRequest('a wildcard needs a domain of at least two labels, as in https://*.shop.example.');
  }
  return { origin: `${url.protocol}//${url.host}`, wildcard };
}

/**
 * The stored origins that would admit `origin`: itself, then a wildcard for every parent
 * domain (`https://a.b.shop.example` → `https://*.b.shop.example`, `https://*.shop.example`, …).
 */
export function matchingOrigins(origin: string): string[] {
  const match = /^(https?:\/\/)([^:/]+)(:\d+)?$/.exec(origin);
  if (!match) return [origin];
  const [, scheme, host = '', port = ''] = match;
  const candidates = [origin];
  if (host.startsWith('[') || /^[\d.]+$/.test(host)) return candidates;
  const labels = host.split('.');
  // Wildcards need two labels after `*.`, so stop before the last two.
  for (let i = 1; i < labels.length - 1; i++) {
    candidates.push(`${scheme}*.${labels.slice(i).join('.')}${port}`);
  }
  return candidates;
}

function truncate(value: string): string {
  return value.length > 60 ? `${value.slice(0, 60)}…` : value;
}
