/**
 * Every range the webhook guard refuses on top of ipaddr.js's own classification, with
 * where it comes from. Listed explicitly so an ipaddr.js upgrade that reclassifies a
 * range cannot silently open it, and so a reader can check each entry at its source.
 */
export interface BlockedRange {
  cidr: string;
  source: string;
  /** What a refusal says about an address in this range, as "not public (<why>)"; never the address itself. */
  why: string;
}

export const BLOCKED_RANGES: readonly BlockedRange[] = [
  // IPv4 special-purpose registry (RFC 6890 and the IANA registry it set up).
  { cidr: '0.0.0.0/8', source: 'RFC 791, RFC 6890: "this network"', why: 'special purpose' },
  { cidr: '10.0.0.0/8', source: 'RFC 1918: private network', why: 'private network' },
  {
    cidr: '100.64.0.0/10',
    source: 'RFC 6598: carrier-grade NAT (also Alibaba Cloud metadata)',
    why: 'special purpose',
  },
  { cidr: '127.0.0.0/8', source: 'RFC 1122: loopback', why: 'loopback' },
  {
    cidr: '169.254.0.0/16',
    source: 'RFC 3927: link-local (AWS, GCP, Azure instance metadata at .169.254)',
    why: 'link-local, where cloud metadata lives',
  },
  { cidr: '172.16.0.0/12', source: 'RFC 1918: private network', why: 'private network' },
  {
    cidr: '192.0.0.0/24',
    source: 'RFC 6890: IETF protocol assignments (Oracle Cloud metadata)',
    why: 'special purpose',
  },
  { cidr: '192.0.2.0/24', source: 'RFC 5737: documentation (TEST-NET-1)', why: 'documentation' },
  { cidr: '192.88.99.0/24', source: 'RFC 7526: deprecated 6to4 relay anycast', why: 'special purpose' },
  { cidr: '192.168.0.0/16', source: 'RFC 1918: private network', why: 'private network' },
  { cidr: '198.18.0.0/15', source: 'RFC 2544: benchmarking', why: 'benchmarking' },
  { cidr: '198.51.100.0/24', source: 'RFC 5737: documentation (TEST-NET-2)', why: 'documentation' },
  { cidr: '203.0.113.0/24', source: 'RFC 5737: documentation (TEST-NET-3)', why: 'documentation' },
  { cidr: '224.0.0.0/4', source: 'RFC 5771: multicast', why: 'multicast' },
  { cidr: '240.0.0.0/4', source: 'RFC 1112: reserved for future use', why: 'reserved' },
  { cidr: '255.255.255.255/32', source: 'RFC 919: limited broadcast', why: 'broadcast' },
  // Public on paper, but answered by the cloud host itself, not by the internet.
  {
    cidr: '168.63.129.16/32',
    source: "Azure's virtual public IP of the host (DNS, DHCP, health probes, VM agent)",
    why: 'a cloud host service',
  },
  // IPv6 forms that embed or tunnel an IPv4 address (the guard would judge the wrapper,
  // not the destination) or that are not globally routed.
  { cidr: '64:ff9b::/96', source: 'RFC 6052: NAT64 well-known prefix', why: 'NAT64' },
  { cidr: '64:ff9b:1::/48', source: 'RFC 8215: local-use NAT64', why: 'NAT64' },
  { cidr: '2002::/16', source: 'RFC 3056: 6to4', why: '6to4' },
  { cidr: '2001::/32', source: 'RFC 4380: Teredo', why: 'Teredo' },
  { cidr: '2001::/23', source: 'RFC 2928: IETF protocol assignments', why: 'special purpose' },
  { cidr: '2001:db8::/32', source: 'RFC 3849: documentation', why: 'documentation' },
  { cidr: '3fff::/20', source: 'RFC 9637: documentation', why: 'documentation' },
  // Before ::/96, which holds both: a refusal names what they are.
  { cidr: '::1/128', source: 'RFC 4291: loopback', why: 'loopback' },
  { cidr: '::/128', source: 'RFC 4291: unspecified address', why: 'special purpose' },
  { cidr: '::/96', source: 'RFC 4291: IPv4-compatible (deprecated)', why: 'IPv4-compatible' },
  {
    cidr: '::ffff:0:0/96',
    source: 'RFC 4291: IPv4-mapped (unwrapped before judging, never connected as such)',
    why: 'IPv4-mapped',
  },
  { cidr: 'fec0::/10', source: 'RFC 3879: site-local (deprecated)', why: 'special purpose' },
  { cidr: '100::/64', source: 'RFC 6666: discard', why: 'special purpose' },
];
