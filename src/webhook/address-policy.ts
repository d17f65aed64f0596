import ipaddr from 'ipaddr.js';
import { BLOCKED_RANGES } from './blocked-ranges.ts';
import { createOwnAddresses } from './own-addresses.ts';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * Result of judging one address. `reason` never holds the address: a refusal may be
 * shown to whoever typed a name, and must not tell them what the name resolved to.
 */
type AddressVerdict = { ok: true; address: string } | { ok: false; reason: string };

/** Judges resolved or literal IP addresses for the webhook guard. */
export interface AddressPolicy {
  /**
   * Judges one IP address written canonically (dotted-quad IPv4 or IPv6, no brackets,
   * no zone). On success `address` is the normalised form to connect to.
   */
  check(ip: string): AddressVerdict;
}

/** Options of {@link createAddressPolicy}. */
export interface AddressPolicyOptions {
  /**
   * CIDRs (or single addresses) let through even though they are not public: the
   * operator's escape hatch for tests and local development. Empty in production.
   */
  allowCidrs: string[];
  /**
   * This machine's own addresses (default: read from the OS, see own-addresses.ts),
   * refused even when an allowlisted range holds them: a webhook must never call the
   * server itself.
   */
  ownAddresses?: () => ReadonlySet<string>;
}

/** An address judged by its ranges alone, before the check for this machine's own addresses. */
type Judged = { ok: true; address: string; parsed: Address } | { ok: false; reason: string };
const MAX_JUDGED = 10_000;

type Range = { range: [Address, number]; why: string };

const RANGES: readonly Range[] = BLOCKED_RANGES.map(({ cidr, why }) => ({ range: ipaddr.parseCIDR(cidr), why }));
const BLOCKED_V4 = RANGES.filter((r) => r.range[0].kind() === 'ipv4');
const BLOCKED_V6 = RANGES.filter((r) => r.range[0].kind() === 'ipv6');

// Only the global unicast block is allocated for public IPv6 use.
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

function inAny(addr: Address, list: [Address, number][]): boolean {
  return list.some((range) => range[0].kind() === addr.kind() && addr.match(range));
}

/** The blocked range holding the address, if any. */
function blockedRange(addr: Address): Range | undefined {
  return (addr.kind() === 'ipv4' ? BLOCKED_V4 : BLOCKED_V6).find(({ range }) => addr.match(range));
}

/** Unwraps `::ffff:a.b.c.d` (however it was written) to the IPv4 address it names. */
function unwrapMapped(addr: Address): Address {
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) {
    return (addr as ipaddr.IPv6).toIPv4Address();
  }
  return addr;
}

/**
 * True when the address lies in one of the ranges of `blocked-ranges.ts`. This
 * list does not depend on ipaddr.js's classification, which has changed between
 * versions; {@link isPublicAddress} requires both to agree.
 */
export function isInBlockedRange(addr: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  return blockedRange(addr) !== undefined;
}

/**
 * True when the address is globally routable: after unwrapping IPv4-mapped IPv6,
 * ipaddr.js calls it `unicast`, an IPv6 address lies in 2000::/3, and it is in none
 * of the blocked special-purpose ranges.
 */
export function isPublicAddress(addr: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  const target = unwrapMapped(addr);
  if (target.range() !== 'unicast' || isInBlockedRange(target)) return false;
  return target.kind() === 'ipv4' || target.match(GLOBAL_UNICAST_V6);
}

/**
 * True for names that always mean this machine (`localhost`, `*.localhost`, with or
 * without trailing dots), refused before any lookup.
 */
export function isLocalHostname(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.+$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

// Strict textual forms only: ipaddr.js also accepts legacy IPv4 notations (octal,
// hex, short forms) and reads "::a.b.c.d" as IPv4-mapped where the standard (and the
// WHATWG URL parser) reads it as IPv4-compatible. IPv6 text is therefore first
// canonicalised by the same WHATWG parser that builds the URL we connect to.
function parseStrict(ip: unknown): Address | null {
  if (typeof ip !== 'string') return null;
  if (ip.includes('%')) return null; // zone ids: link-local only, never public
  if (ipaddr.IPv4.isValidFourPartDecimal(ip)) return ipaddr.IPv4.parse(ip);
  if (!ip.includes(':') || !ipaddr.IPv6.isValid(ip)) return null;
  let host: string;
  try {
    host = new URL(`http://[${ip}]/`).hostname;
  } catch {
    return null;
  }
  return ipaddr.IPv6.parse(host.slice(1, -1));
}

/** Parses one allowlist entry (an address or a CIDR in strict notation); throws when malformed. */
export function parseAllowEntry(entry: string): [Address, number] {
  const text = entry.trim();
  const slash = text.indexOf('/');
  const addr = parseStrict(slash === -1 ? text : text.slice(0, slash));
  if (addr === null) throw new Error(`allowCidrs: ${JSON.stringify(entry)} is not an IP address or CIDR`);
  const maxBits = addr.kind() === 'ipv4' ? 32 : 128;
  const bitsText = slash === -1 ? String(maxBits) : text.slice(slash + 1);
  const bits = Number(bitsText);
  if (!/^\d{1,3}$/.test(bitsText) || bits > maxBits) {
    throw new Error(`allowCidrs: ${JSON.stringify(entry)} has an invalid prefix length`);
  }
  return [addr, bits];
}

/**
 * Builds the address policy. Throws on a malformed `allowCidrs` entry, so a typo in
 * operator configuration fails at start-up instead of silently allowing nothing.
 */
export function createAddressPolicy(options: AddressPolicyOptions): AddressPolicy {
  const allowed = options.allowCidrs.filter((entry) => entry.trim() !== '').map(parseAllowEntry);
  const ownAddresses = options.ownAddresses ?? createOwnAddresses();
  // The OS writes addresses its own way: compare canonical forms, cached per set read.
  let ownSeen: ReadonlySet<string> | undefined;
  let ownCanonical = new Set<string>();
  const isOwn = (addr: Address): boolean => {
    const current = ownAddresses();
    if (current !== ownSeen) {
      ownSeen = current;
      ownCanonical = new Set([...current].flatMap((text) => (ipaddr.isValid(text) ? [canonical(text)] : [])));
    }
    return ownCanonical.has(addr.toString()) || ownCanonical.has(unwrapMapped(addr).toString());
  };
  // What the ranges say of an address text never changes (the allowlist is fixed at
  // start): judged once per text, bounded, emptied when full. Whether it is this
  // machine's own address can change, so that is asked on every check.
  const judged = new Map<string, Judged>();
  const judge = (ip: string): Judged => {
    const parsed = parseStrict(ip);
    if (!parsed) return { ok: false, reason: 'not an IP address' };
    // The allowlist is matched against the unwrapped address too, so an allowed
    // 127.0.0.2 is the same destination whether written as IPv4 or IPv4-mapped.
    const allowlisted = inAny(parsed, allowed) || inAny(unwrapMapped(parsed), allowed);
    if (!allowlisted && !isPublicAddress(parsed)) {
      const range = blockedRange(unwrapMapped(parsed));
      return { ok: false, reason: range ? `not public (${range.why})` : 'not public' };
    }
    return { ok: true, address: parsed.toString(), parsed };
  };
  return {
    check(ip: string): AddressVerdict {
      let verdict = judged.get(ip);
      if (verdict === undefined) {
        verdict = judge(ip);
        if (judged.size >= MAX_JUDGED) judged.clear();
        judged.set(ip, verdict);
      }
      if (!verdict.ok) return verdict;
      // Public or allowlisted, an address of this machine is still refused.
      if (isOwn(verdict.parsed)) return { ok: false, reason: "this server's own address" };
      return { ok: true, address: verdict.address };
    },
  };
}

/** ipaddr.js's canonical text of an address, IPv4-mapped IPv6 as its IPv4 address. */
function canonical(text: string): string {
  return unwrapMapped(ipaddr.parse(text)).toString();
}
