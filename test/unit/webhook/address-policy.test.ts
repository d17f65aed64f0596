import { describe, expect, test } from 'bun:test';
import ipaddr from 'ipaddr.js';
import {
  createAddressPolicy,
  isInBlockedRange,
  isLocalHostname,
  isPublicAddress,
} from '../../../src/webhook/address-policy.ts';

const policy = createAddressPolicy({ allowCidrs: [] });

// [address, family] — every special-purpose address family (IANA registries), with edges.
const blocked: [string, string][] = [
  ['0.0.0.0', 'unspecified / this network'],
  ['0.1.2.3', 'this network 0/8'],
  ['10.0.0.1', 'private 10/8'],
  ['10.255.255.255', 'private 10/8 top'],
  ['100.64.0.1', 'CGNAT'],
  ['100.127.255.254', 'CGNAT top'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback top'],
  ['169.254.0.1', 'link-local'],
  ['169.254.169.254', 'cloud metadata'],
  ['172.16.0.1', 'private 172.16/12'],
  ['172.31.255.255', 'private 172.16/12 top'],
  ['192.0.0.1', 'IETF protocol assignments'],
  ['192.0.0.170', 'NAT64 discovery'],
  ['192.0.2.1', 'TEST-NET-1'],
  ['192.88.99.1', '6to4 relay anycast'],
  ['192.168.1.1', 'private 192.168/16'],
  ['198.18.0.1', 'benchmarking'],
  ['198.19.255.255', 'benchmarking top'],
  ['198.51.100.1', 'TEST-NET-2'],
  ['203.0.113.1', 'TEST-NET-3'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast SSDP'],
  ['240.0.0.1', 'reserved 240/4'],
  ['255.255.255.254', 'reserved 240/4 top'],
  ['255.255.255.255', 'broadcast'],
  ['192.175.48.1', 'AS112'],
  ['::', 'IPv6 unspecified'],
  ['::1', 'IPv6 loopback'],
  ['fe80::1', 'IPv6 link-local'],
  ['febf:ffff::1', 'IPv6 link-local top'],
  ['fc00::1', 'unique local'],
  ['fd00::1', 'unique local fd'],
  ['fd00:ec2::254', 'AWS metadata IPv6'],
  ['ff02::1', 'IPv6 multicast'],
  ['ff05::1:3', 'IPv6 site multicast'],
  ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
  ['::ffff:7f00:1', 'IPv4-mapped loopback, hex'],
  ['0:0:0:0:0:ffff:7f00:1', 'IPv4-mapped loopback, long'],
  ['::ffff:10.0.0.1', 'IPv4-mapped private'],
  ['::ffff:a9fe:a9fe', 'IPv4-mapped metadata, hex'],
  ['::ffff:0.0.0.0', 'IPv4-mapped unspecified'],
  ['::127.0.0.1', 'IPv4-compatible loopback ::/96'],
  ['::7f00:1', 'IPv4-compatible loopback, hex'],
  ['::808:808', 'IPv4-compatible around public v4'],
  ['::ffff:0:7f00:1', 'SIIT rfc6145'],
  ['64:ff9b::7f00:1', 'NAT64 around loopback'],
  ['64:ff9b::10.0.0.1', 'NAT64 around private'],
  ['64:ff9b::a9fe:a9fe', 'NAT64 around metadata'],
  ['64:ff9b::8.8.8.8', 'NAT64 around public v4 (still a wrapper)'],
  ['64:ff9b:1::a00:1', 'local-use NAT64'],
  ['2002:7f00:1::1', '6to4 around loopback'],
  ['2002:c0a8:101::1', '6to4 around 192.168.1.1'],
  ['2002:a9fe:a9fe::', '6to4 around metadata'],
  ['2002:808:808::1', '6to4 around public v4 (still a tunnel)'],
  ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'Teredo around 127.0.0.1'],
  ['2001::1', 'Teredo prefix'],
  ['2001:2::1', 'benchmarking 2001:2::/48'],
  ['2001:10::1', 'ORCHID'],
  ['2001:20::1', 'ORCHIDv2'],
  ['2001:1ff:ffff::1', 'IETF block 2001::/23 top'],
  ['2001:db8::1', 'documentation 2001:db8::/32'],
  ['2001:db8:ffff::1', 'documentation top'],
  ['3fff::1', 'documentation 3fff::/20'],
  ['3fff:fff:ffff::1', 'documentation 3fff::/20 top'],
  ['fec0::1', 'site-local'],
  ['100::1', 'discard 100::/64'],
  ['4000::1', 'outside 2000::/3'],
  ['1fff:ffff::1', 'below 2000::/3'],
  ['5f00::1', 'segment routing'],
  ['2620:4f:8000::1', 'AS112 IPv6'],
];

const publicAddresses: [string, string][] = [
  ['8.8.8.8', 'Google DNS'],
  ['1.1.1.1', 'Cloudflare DNS'],
  ['93.184.215.14', 'example.com'],
  ['9.255.255.255', 'just below 10/8'],
  ['11.0.0.0', 'just above 10/8'],
  ['100.63.255.255', 'just below CGNAT'],
  ['100.128.0.0', 'just above CGNAT'],
  ['126.255.255.255', 'just below 127/8'],
  ['128.0.0.0', 'just above 127/8'],
  ['169.253.255.255', 'just below link-local'],
  ['172.15.255.255', 'just below 172.16/12'],
  ['172.32.0.0', 'just above 172.16/12'],
  ['192.167.255.255', 'just below 192.168/16'],
  ['192.169.0.0', 'just above 192.168/16'],
  ['198.17.255.255', 'just below 198.18/15'],
  ['198.20.0.0', 'just above 198.18/15'],
  ['223.255.255.255', 'just below multicast'],
  ['2606:4700:4700::1111', 'Cloudflare DNS IPv6'],
  ['2001:4860:4860::8888', 'Google DNS IPv6'],
  ['2a00:1450:4001::200e', 'Google IPv6'],
  ['2001:200::1', 'just above 2001::/23'],
  ['2000::1', 'bottom of 2000::/3'],
  ['3ffe::1', 'inside 2000::/3, below 3fff::/20'],
  ['::ffff:8.8.8.8', 'IPv4-mapped public'],
  ['::ffff:808:808', 'IPv4-mapped public, hex'],
];

describe('isPublicAddress', () => {
  test.each(blocked)('%s (%s) is not public', (ip) => {
    expect(isPublicAddress(ipaddr.parse(ip))).toBe(false);
  });
  test.each(publicAddresses)('%s (%s) is public', (ip) => {
    expect(isPublicAddress(ipaddr.parse(ip))).toBe(true);
  });
});

// The explicit list of blocked ranges (docs/webhooks.md), first and last address of each range: it must
// hold on its own, whatever ipaddr.js's range() says in this or a later version.
describe('isInBlockedRange: the named ranges, independent of ipaddr.js', () => {
  test.each([
    ['0.0.0.0/8'],
    ['10.0.0.0/8'],
    ['100.64.0.0/10'],
    ['127.0.0.0/8'],
    ['169.254.0.0/16'],
    ['172.16.0.0/12'],
    ['192.0.0.0/24'],
    ['192.0.2.0/24'],
    ['192.88.99.0/24'],
    ['192.168.0.0/16'],
    ['198.18.0.0/15'],
    ['198.51.100.0/24'],
    ['203.0.113.0/24'],
    ['224.0.0.0/4'],
    ['240.0.0.0/4'],
    ['255.255.255.255/32'],
    ['64:ff9b::/96'],
    ['64:ff9b:1::/48'],
    ['2002::/16'],
    ['2001::/32'],
    ['2001::/23'],
    ['2001:db8::/32'],
    ['3fff::/20'],
    ['::/96'],
    ['fec0::/10'],
    ['100::/64'],
  ])('%s: first and last address', (cidr) => {
    const first = cidr.includes(':')
      ? ipaddr.IPv6.networkAddressFromCIDR(cidr)
      : ipaddr.IPv4.networkAddressFromCIDR(cidr);
    const last = cidr.includes(':')
      ? ipaddr.IPv6.broadcastAddressFromCIDR(cidr)
      : ipaddr.IPv4.broadcastAddressFromCIDR(cidr);
    expect([isInBlockedRange(first), isInBlockedRange(last)]).toEqual([true, true]);
  });

  test.each(publicAddresses.filter(([ip]) => !ip.startsWith('::ffff:')))('%s (%s) is in none', (ip) => {
    expect(isInBlockedRange(ipaddr.parse(ip))).toBe(false);
  });
});

describe('policy.check without allowlist', () => {
  test('a refusal names the kind of address, IPv6 loopback included', () => {
    const reasons = ['127.0.0.1', '::1', '::', '10.1.2.3', '::127.0.0.1'].map((ip) => {
      const verdict = policy.check(ip);
      return verdict.ok ? 'allowed' : verdict.reason;
    });
    expect(reasons).toEqual([
      'not public (loopback)',
      'not public (loopback)',
      'not public (special purpose)',
      'not public (private network)',
      'not public (IPv4-compatible)',
    ]);
  });
  test.each(blocked)('%s (%s) is refused with a reason', (ip) => {
    const verdict = policy.check(ip);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.reason).toContain('not public');
  });
  test.each(publicAddresses)('%s (%s) passes and is normalised', (ip) => {
    expect(policy.check(ip)).toEqual({ ok: true, address: ipaddr.parse(ip).toString() });
  });

  // Legacy notations are for the URL parser to canonicalise; a resolver never returns
  // them, and ipaddr.js's reading of them might differ from the one used to connect.
  test.each([
    ['127.1', 'short form'],
    ['0x7f.0.0.1', 'hex part'],
    ['0177.0.0.1', 'octal part'],
    ['2130706433', 'decimal integer'],
    ['08.8.8.8', 'leading zero'],
    ['[::1]', 'brackets'],
    ['fe80::1%eth0', 'zone id'],
    ['8.8.8.8%eth0', 'zone id on IPv4'],
    [' 8.8.8.8', 'leading space'],
    ['8.8.8.8\n', 'trailing newline'],
    ['localhost', 'a name'],
    ['example.com', 'a name'],
    ['', 'empty'],
    ['1.2.3.4.5', 'five parts'],
    ['256.1.1.1', 'octet overflow'],
  ])('%j (%s) is not an acceptable address string', (ip) => {
    const verdict = policy.check(ip);
    expect(verdict.ok).toBe(false);
  });

  // ipaddr.js alone reads "::a.b.c.d" as IPv4-mapped (public for a public v4);
  // the standard and the URL parser read it as IPv4-compatible ::/96.
  test.each([['::8.8.8.8'], ['::1.1.1.1'], ['0:0:0:0:0:0:8.8.8.8']])(
    '%s is read as IPv4-compatible and refused',
    (ip) => {
      expect(policy.check(ip).ok).toBe(false);
    },
  );

  test('a non-string from a broken resolver is refused, not thrown', () => {
    expect(policy.check(42 as unknown as string).ok).toBe(false);
  });
});

describe('allowCidrs (operator escape hatch)', () => {
  const allowing = createAddressPolicy({ allowCidrs: ['127.0.0.2/32'] });
  test.each([
    ['127.0.0.2', true],
    ['::ffff:127.0.0.2', true],
    ['127.0.0.1', false],
    ['127.0.0.3', false],
    ['127.0.0.0', false],
    ['10.0.0.2', false],
    ['::1', false],
    ['8.8.8.8', true],
  ])('with 127.0.0.2/32: %s allowed=%p', (ip, ok) => {
    expect(allowing.check(ip).ok).toBe(ok);
  });

  test.each([
    [['127.0.0.2'], '127.0.0.2', true],
    [['127.0.0.2'], '127.0.0.3', false],
    [['10.1.0.0/16'], '10.1.255.1', true],
    [['10.1.0.0/16'], '10.2.0.1', false],
    [['fd00::/8'], 'fd12::1', true],
    [['fd00::/8'], 'fc00::1', false],
    [[' 127.0.0.2/32 ', ''], '127.0.0.2', true],
    [[], '127.0.0.2', false],
  ])('allowCidrs %j: %s allowed=%p', (allowCidrs, ip, ok) => {
    expect(createAddressPolicy({ allowCidrs }).check(ip).ok).toBe(ok);
  });

  test.each([
    ['127.0.0.2/33'],
    ['not-a-cidr'],
    ['127.0.0/8'],
    ['127.1/32'],
    ['::1/129'],
    ['10.0.0.0/'],
    ['10.0.0.0/8x'],
  ])('malformed entry %j fails loudly at creation', (entry) => {
    expect(() => createAddressPolicy({ allowCidrs: [entry] })).toThrow();
  });
});

describe('isLocalHostname', () => {
  test.each([
    ['localhost', true],
    ['LOCALHOST', true],
    ['localhost.', true],
    ['localhost..', true],
    ['foo.localhost', true],
    ['a.b.localhost.', true],
    ['Foo.LocalHost', true],
    ['localhost.example.com', false],
    ['notlocalhost', false],
    ['mylocalhost.test', false],
    ['example.com', false],
  ])('%s -> %p', (name, expected) => {
    expect(isLocalHostname(name)).toBe(expected);
  });
});
