import ipaddr from 'ipaddr.js';
import { mappedIpv4, readIp, type IpParts } from '../limits/ip-text.ts';

/**
 * The client's address for rate limiting. `X-Forwarded-For` is believed only when the
 * direct peer is a configured trusted proxy, and then only up to the first hop that is
 * not one: anyone can write that header. Runs on every widget request, so addresses are
 * read with the quick reader of src/limits/ip-text.ts (ipaddr.js only for rare spellings).
 */
function createClientIpResolver(trustedCidrs: readonly string[]) {
  const ranges = trustedCidrs.map((cidr) => {
    const [address, bits] = ipaddr.parseCIDR(cidr);
    return { ip: unmapped(fromIpaddr(address)), bits };
  });

  /** The address read, IPv4-mapped IPv6 as IPv4; null when it is not an IP address. */
  const read = (text: string): IpParts | null => {
    const quick = readIp(text);
    if (quick !== null) return unmapped(quick);
    return ipaddr.isValid(text) ? unmapped(fromIpaddr(ipaddr.parse(text))) : null;
  };
  const trusted = (ip: IpParts | null): boolean =>
    ip !== null && ranges.some((range) => range.ip.kind === ip.kind && inRange(ip, range.ip, range.bits));

  // Peers are few (the proxies themselves): remember what each one is.
  const peers = new Map<string, boolean>();
  const trustedPeer = (peer: string): boolean => {
    let known = peers.get(peer);
    if (known === undefined) {
      known = trusted(read(peer));
      if (peers.size >= 1024) peers.clear();
      peers.set(peer, known);
    }
    return known;
  };

  return (peer: string | undefined, forwardedFor: string | null): string => {
    const direct = peer ?? UNKNOWN_PEER;
    if (!forwardedFor || ranges.length === 0 || !trustedPeer(direct)) return direct;
    // One hop (one proxy in front) is the common case: no split.
    const hops = forwardedFor.includes(',')
      ? forwardedFor
          .split(',')
          .map((hop) => hop.trim())
          .filter(Boolean)
      : [forwardedFor.trim()];
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = hops[i] as string;
      const ip = read(hop);
      if (!trusted(ip)) return ip !== null ? hop : direct;
    }
    return hops[0] ?? direct;
  };
}

/** The address given when the socket's peer is not known (a closed or in-process request). */
const UNKNOWN_PEER = 'unknown';

/**
 * The client address of each request, given how to read the peer of its socket. Without a
 * trusted proxy `X-Forwarded-For` is never believed, so it is not even read: this runs on
 * every widget request.
 */
export function requestClientIp(
  trustedCidrs: readonly string[],
  peerOf: (request: Request) => string | undefined,
): (request: Request) => string {
  if (trustedCidrs.length === 0) return (request) => peerOf(request) ?? UNKNOWN_PEER;
  const resolve = createClientIpResolver(trustedCidrs);
  return (request) => resolve(peerOf(request), request.headers.get('x-forwarded-for'));
}

function fromIpaddr(address: ipaddr.IPv4 | ipaddr.IPv6): IpParts {
  if (address.kind() === 'ipv4') {
    const [a, b, c, d] = (address as ipaddr.IPv4).octets as [number, number, number, number];
    return { kind: 'ipv4', value: ((a * 256 + b) * 256 + c) * 256 + d };
  }
  return { kind: 'ipv6', parts: [...(address as ipaddr.IPv6).parts] };
}

function unmapped(ip: IpParts): IpParts {
  if (ip.kind === 'ipv4') return ip;
  const value = mappedIpv4(ip.parts);
  return value === null ? ip : { kind: 'ipv4', value };
}

function inRange(ip: IpParts, network: IpParts, bits: number): boolean {
  if (ip.kind === 'ipv4' && network.kind === 'ipv4') {
    if (bits === 0) return true;
    const shift = 32 - bits;
    return Math.floor(ip.value / 2 ** shift) === Math.floor(network.value / 2 ** shift);
  }
  if (ip.kind === 'ipv6' && network.kind === 'ipv6') {
    for (let i = 0; i < 8 && bits > 0; i++, bits -= 16) {
      const take = Math.min(16, bits);
      const mask = (0xffff << (16 - take)) & 0xffff;
      if (((ip.parts[i] as number) & mask) !== ((network.parts[i] as number) & mask)) return false;
    }
    return true;
  }
  return false;
}
