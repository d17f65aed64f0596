import ipaddr from 'ipaddr.js';

/**
 * The unit a client is counted by: an IPv4 address as it is, an IPv6 address by its
 * /64 (one customer line or one cloud VM usually holds a whole /64, so counting single
 * IPv6 addresses would give one machine 2^64 budgets). IPv4-mapped IPv6 counts as the
 * IPv4 address it names. Anything unparsable is counted as written.
 */
export function clientGroup(address: string): string {
  // The common case first, without a parse: a dotted IPv4 address.
  if (!address.includes(':')) return address;
  if (!ipaddr.IPv6.isValid(address)) return address;
  const v6 = ipaddr.IPv6.parse(address);
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  const [a, b, c, d] = v6.parts as [number, number, number, number];
  return `${a.toString(16)}:${b.toString(16)}:${c.toString(16)}:${d.toString(16)}::/64`;
}
