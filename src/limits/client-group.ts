import ipaddr from 'ipaddr.js';
import { ipv4Text, mappedIpv4, readIp } from './ip-text.ts';

/**
 * The unit a client is counted by: an IPv4 address as it is, an IPv6 address by its
 * /64 (one customer line or one cloud VM usually holds a whole /64, so counting single
 * IPv6 addresses would give one machine 2^64 budgets). IPv4-mapped IPv6 counts as the
 * IPv4 address it names. Anything unparsable is counted as written.
 */
export function clientGroup(address: string): string {
  // The common case first, without a parse: a dotted IPv4 address.
  if (!address.includes(':')) return address;
  const read = readIp(address);
  if (read?.kind === 'ipv6') return groupOf(read.parts);
  // Rare spellings (embedded dotted IPv4, zone ids): ipaddr.js's full parser.
  if (!ipaddr.IPv6.isValid(address)) return address;
  return groupOf(ipaddr.IPv6.parse(address).parts);
}

function groupOf(parts: readonly number[]): string {
  const mapped = mappedIpv4(parts);
  if (mapped !== null) return ipv4Text(mapped);
  const [a, b, c, d] = parts as [number, number, number, number];
  return `${a.toString(16)}:${b.toString(16)}:${c.toString(16)}:${d.toString(16)}::/64`;
}
