import ipaddr from 'ipaddr.js';

/**
 * The client's address for rate limiting. `X-Forwarded-For` is believed only when the
 * direct peer is a configured trusted proxy, and then only up to the first hop that is
 * not one: anyone can write that header.
 */
export function createClientIpResolver(trustedCidrs: readonly string[]) {
  const ranges = trustedCidrs.map((cidr) => ipaddr.parseCIDR(cidr));
  const trusted = (ip: string): boolean => {
    if (ranges.length === 0 || !ipaddr.isValid(ip)) return false;
    let addr = ipaddr.parse(ip);
    if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress())
      addr = (addr as ipaddr.IPv6).toIPv4Address();
    return ranges.some(
      ([range, bits]) => range.kind() === addr.kind() && addr.match([range, bits] as [typeof addr, number]),
    );
  };

  return (peer: string | undefined, forwardedFor: string | null): string => {
    const direct = peer ?? 'unknown';
    if (!forwardedFor || !trusted(direct)) return direct;
    const hops = forwardedFor
      .split(',')
      .map((hop) => hop.trim())
      .filter(Boolean);
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = hops[i] as string;
      if (!trusted(hop)) return ipaddr.isValid(hop) ? hop : direct;
    }
    return hops[0] ?? direct;
  };
}
