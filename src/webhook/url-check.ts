import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { raceAbort } from './abort.ts';
import { isLocalHostname, type AddressPolicy } from './address-policy.ts';

/** A webhook URL that passed the syntactic checks. */
export interface WebhookTarget {
  /** The single WHATWG parse of the raw URL; everything else derives from it. */
  url: URL;
  /** Host without brackets: a DNS name, a dotted-quad IPv4 or an IPv6 address. */
  hostname: string;
  /** Effective port (the scheme's default when none is written). */
  port: number;
  isIpLiteral: boolean;
  /** The literal address when `isIpLiteral`. */
  ip?: string;
}

/** Why a URL was refused, with the fetch outcome it maps to. */
export interface WebhookUrlError {
  reason: string;
  outcome: 'bad_scheme' | 'blocked_address' | 'invalid';
}

/** Looks a name up and returns every A and AAAA answer as IP strings. */
export type Resolver = (hostname: string) => Promise<string[]>;

/** Outcome of {@link resolveAndCheck}. */
export type ResolveResult =
  | { ok: true; address: string }
  | { ok: false; outcome: 'blocked_address' | 'unreachable' | 'timeout'; reason: string };

const MAX_URL_LENGTH = 2048;

// Backslashes, whitespace (including Unicode spaces) and C0/C1 controls are refused
// outright: the WHATWG parser silently rewrites or strips them, and other URL
// parsers (logs, the customer's proxies) may read such a URL differently.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point of this check
const FORBIDDEN_CHARS = /[\\\s\u0000-\u001f\u007f-\u009f]/u;

function isAllowedPort(port: number): boolean {
  // Below 1024 sit the well-known services (SSH, SMTP, …) an attacker would aim at;
  // only the two web ports are allowed there.
  return port === 80 || port === 443 || (port >= 1024 && port <= 65535);
}

/**
 * Parses a webhook URL once with the WHATWG parser and applies the syntactic rules:
 * http/https only, no user info, ports 80/443/1024–65535, no `localhost` names.
 */
export function parseWebhookUrl(raw: string): WebhookTarget | WebhookUrlError {
  if (typeof raw !== 'string' || raw.length === 0) return { reason: 'URL is empty', outcome: 'invalid' };
  if (raw.length > MAX_URL_LENGTH) return { reason: 'URL is too long', outcome: 'invalid' };
  if (FORBIDDEN_CHARS.test(raw)) {
    return { reason: 'URL contains a backslash, whitespace or a control character', outcome: 'invalid' };
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { reason: 'URL is not absolute or not well-formed', outcome: 'invalid' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { reason: `scheme ${url.protocol} is not allowed; use http or https`, outcome: 'bad_scheme' };
  }
  // Credentials belong in headers (stored encrypted), not in a URL that gets logged.
  if (url.username !== '' || url.password !== '') {
    return { reason: 'URL must not contain user info', outcome: 'invalid' };
  }
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  if (!isAllowedPort(port)) {
    return { reason: `port ${port} is not allowed; use 80, 443 or 1024-65535`, outcome: 'blocked_address' };
  }
  const bracketed = url.hostname.startsWith('[');
  // ipaddr.js throws on "[::1]": strip the brackets the URL keeps on IPv6 hosts.
  const hostname = bracketed ? url.hostname.slice(1, -1) : url.hostname;
  if (hostname === '') return { reason: 'URL has no host', outcome: 'invalid' };
  // The WHATWG parser already turned every IPv4 spelling (decimal, octal, hex,
  // short, full-width) into a dotted quad, so this test catches them all.
  const isIpLiteral = bracketed || ipaddr.IPv4.isValidFourPartDecimal(hostname);
  if (!isIpLiteral && isLocalHostname(hostname)) {
    return { reason: `host ${hostname} always means this machine`, outcome: 'blocked_address' };
  }
  return isIpLiteral ? { url, hostname, port, isIpLiteral, ip: hostname } : { url, hostname, port, isIpLiteral };
}

// A parse depends on the text alone: a saved URL is parsed once, not on every call.
// Bounded, emptied when full. The targets are shared, so nothing may change them.
const parsedUrls = new Map<string, WebhookTarget | WebhookUrlError>();
const MAX_PARSED_URLS = 10_000;

/**
 * {@link parseWebhookUrl}, remembered per URL text: the guard parses the saved URL on
 * every call (rules are checked at every attempt, not only at save), always to the same result.
 */
export function parseWebhookUrlOnce(raw: string): WebhookTarget | WebhookUrlError {
  let parsed = parsedUrls.get(raw);
  if (parsed === undefined) {
    parsed = parseWebhookUrl(raw);
    if (parsedUrls.size >= MAX_PARSED_URLS) parsedUrls.clear();
    parsedUrls.set(raw, parsed);
  }
  return parsed;
}

/** True when {@link parseWebhookUrl} refused the URL. */
export function isWebhookUrlError(value: WebhookTarget | WebhookUrlError): value is WebhookUrlError {
  return 'outcome' in value;
}

/**
 * Resolves the target's name once (racing the caller's time budget) and requires
 * every answer to pass the policy; an IP literal is judged without a lookup. Returns
 * the first checked address: the caller must connect to it and to nothing else.
 */
export async function resolveAndCheck(
  target: WebhookTarget,
  deps: { resolve: Resolver; policy: AddressPolicy; signal: AbortSignal },
): Promise<ResolveResult> {
  if (target.isIpLiteral) {
    const verdict = deps.policy.check(target.hostname);
    // The owner typed this address: naming it tells them nothing new.
    return verdict.ok
      ? verdict
      : { ok: false, outcome: 'blocked_address', reason: `address ${target.hostname} is ${verdict.reason}` };
  }
  if (deps.signal.aborted) return { ok: false, outcome: 'timeout', reason: 'time budget exhausted' };
  let answers: string[];
  try {
    // The resolver takes no signal: race it so a slow DNS server spends the same
    // budget as connect and body, not a budget of its own.
    answers = await raceAbort(
      Promise.resolve().then(() => deps.resolve(target.hostname)),
      deps.signal,
    );
  } catch {
    if (deps.signal.aborted) return { ok: false, outcome: 'timeout', reason: 'name lookup timed out' };
    return { ok: false, outcome: 'unreachable', reason: `name ${target.hostname} does not resolve` };
  }
  if (!Array.isArray(answers) || answers.length === 0) {
    return { ok: false, outcome: 'unreachable', reason: `name ${target.hostname} has no addresses` };
  }
  // Every answer must be public, not just the first: clients and resolvers reorder
  // answers, and a mixed answer is a sign of an attack.
  const checked: string[] = [];
  for (const answer of answers) {
    const verdict = deps.policy.check(answer);
    if (!verdict.ok) {
      // Never the address itself: a 422 must not turn the guard into a way of reading
      // what names resolve to from inside the operator's network.
      return {
        ok: false,
        outcome: 'blocked_address',
        reason: `${target.hostname} resolves to an address that is ${verdict.reason}`,
      };
    }
    checked.push(verdict.address);
  }
  const [first] = checked;
  return first === undefined
    ? { ok: false, outcome: 'unreachable', reason: `name ${target.hostname} has no addresses` }
    : { ok: true, address: first };
}

/** The production resolver: the system's A and AAAA answers, in resolver order. */
export const systemResolver: Resolver = async (hostname) => {
  const answers = await lookup(hostname, { all: true, order: 'verbatim' });
  return answers.map((answer) => answer.address);
};
