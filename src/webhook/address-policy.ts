import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** Result of judging one address. */
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
}

function cidrs(list: string[]): [Address, number][] {
  return list.map((text) => ipaddr.parseCIDR(text));
}

// Ranges ipaddr.js may or may not classify as non-unicast (it has changed between
// versions): listed explicitly so an ipaddr.js upgrade cannot silently open one.
const BLOCKED_V4 = cidrs([
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.88.99.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4',
  '240.0.0.0/4',
  '255.255.255.255/32',
]);

// IPv6 forms that embed or tunnel an IPv4 address (the guard would judge the wrapper,
// not the destination) or that are not globally routed.
const BLOCKED_V6 = cidrs([
  '64:ff9b::/96', // NAT64
  '64:ff9b:1::/48', // local-use NAT64
  '2002::/16', // 6to4
  '2001::/32', // Teredo
  '2001::/23', // IETF protocol assignments
  '2001:db8::/32', // documentation
  '3fff::/20', // documentation
  '::/96', // IPv4-compatible (deprecated)
  '::ffff:0:0/96', // IPv4-mapped: unwrapped before judging, never connected as such
  'fec0::/10', // site-local (deprecated)
  '100::/64', // discard
]);

// Only the global unicast block is allocated for public IPv6 use.
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

function inAny(addr: Address, list: [Address, number][]): boolean {
  return list.some((range) => range[0].kind() === addr.kind() && addr.match(range));
}

/** Unwraps `::ffff:a.b.c.d` (however it was written) to the IPv4 address it names. */
function unwrapMapped(addr: Address): Address {
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) {
    return (addr as ipaddr.IPv6).toIPv4Address();
  }
  return addr;
}

/**
 * True when the address lies in one of the ranges security.md §4 lists by name. This
 * list does not depend on ipaddr.js's classification, which has changed between
 * versions; {@link isPublicAddress} requires both to agree.
 */
export function isInBlockedRange(addr: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  return inAny(addr, addr.kind() === 'ipv4' ? BLOCKED_V4 : BLOCKED_V6);
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
  return {
    check(ip: string): AddressVerdict {
      const parsed = parseStrict(ip);
      if (!parsed) return { ok: false, reason: `not an IP address: ${JSON.stringify(ip)}` };
      const address = parsed.toString();
      // The allowlist is matched against the unwrapped address too, so an allowed
      // 127.0.0.2 is the same destination whether written as IPv4 or IPv4-mapped.
      if (inAny(parsed, allowed) || inAny(unwrapMapped(parsed), allowed)) {
        return { ok: true, address };
      }
      if (!isPublicAddress(parsed)) return { ok: false, reason: `address ${address} is not public` };
      return { ok: true, address };
    },
  };
}
