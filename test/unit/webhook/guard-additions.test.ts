import { describe, expect, test } from 'bun:test';
import { networkInterfaces } from 'node:os';
import ipaddr from 'ipaddr.js';
import { createAddressPolicy, isInBlockedRange } from '../../../src/webhook/address-policy.ts';
import { BLOCKED_RANGES } from '../../../src/webhook/blocked-ranges.ts';
import { createOwnAddresses, type InterfaceReader } from '../../../src/webhook/own-addresses.ts';
import { parseWebhookUrl, resolveAndCheck, type WebhookTarget } from '../../../src/webhook/url-check.ts';

type Interfaces = ReturnType<InterfaceReader>;
const nic = (address: string, family: 'IPv4' | 'IPv6') =>
  ({ address, family, netmask: '', mac: '', internal: false, cidr: null }) as NonNullable<Interfaces[string]>[number];

describe("the machine's own interface addresses", () => {
  test('every address the OS reports is refused, even inside an allowlisted range', () => {
    const own = Object.values(networkInterfaces())
      .flatMap((list) => list ?? [])
      .map((entry) => entry.address.replace(/%.*$/, ''));
    expect(own.length).toBeGreaterThan(0);
    // The operator's escape hatch covers all of them: own addresses are still refused.
    const policy = createAddressPolicy({ allowCidrs: ['0.0.0.0/0', '::/0'] });
    for (const address of own) {
      expect({ address, verdict: policy.check(address) }).toEqual({
        address,
        verdict: { ok: false, reason: "this server's own address" },
      });
    }
    // Other addresses in the allowlisted ranges still pass (127.0.0.2 is not on lo's list).
    expect(policy.check('127.0.0.2').ok).toBe(!own.includes('127.0.0.2'));
  });

  test('a public address a card gains is refused within the minute; one it loses is allowed again', () => {
    let now = 0;
    let cards: Interfaces = { eth0: [nic('93.184.215.14', 'IPv4')] };
    const ownAddresses = createOwnAddresses({ read: () => cards, now: () => now });
    const policy = createAddressPolicy({ allowCidrs: [], ownAddresses });
    expect(policy.check('93.184.215.14').ok).toBe(false);
    expect(policy.check('2606:2800:21f:cb07:6820:80da:af6b:8b2c').ok).toBe(true);
    cards = { eth0: [nic('2606:2800:21f:cb07:6820:80da:af6b:8b2c', 'IPv6')] };
    now = 60_000;
    expect(policy.check('2606:2800:21f:cb07:6820:80da:af6b:8b2c')).toEqual({
      ok: false,
      reason: "this server's own address",
    });
    // Written differently, and as IPv4-mapped: still the same machine.
    expect(policy.check('2606:2800:21f:cb07:6820:80da:af6b:8b2C'.toLowerCase()).ok).toBe(false);
    expect(policy.check('93.184.215.14').ok).toBe(true);
  });

  test('an IPv4-mapped spelling of an own IPv4 address is refused', () => {
    const policy = createAddressPolicy({
      allowCidrs: [],
      ownAddresses: createOwnAddresses({ read: () => ({ eth0: [nic('93.184.215.14', 'IPv4')] }) }),
    });
    expect(policy.check('::ffff:93.184.215.14').ok).toBe(false);
    expect(policy.check('::ffff:5db8:d70e').ok).toBe(false);
  });

  test('the OS is read again at most every 30 seconds, never more often', () => {
    let now = 0;
    let reads = 0;
    const ownAddresses = createOwnAddresses({
      read: () => {
        reads += 1;
        return {};
      },
      now: () => now,
    });
    for (let i = 0; i < 100; i++) ownAddresses();
    now = 29_999;
    ownAddresses();
    expect(reads).toBe(1);
    now = 30_000;
    ownAddresses();
    expect(reads).toBe(2);
  });
});

describe('ranges that are public on paper, and the provenance table', () => {
  test("Azure's host address 168.63.129.16 is refused, its neighbours are not", () => {
    const policy = createAddressPolicy({ allowCidrs: [], ownAddresses: () => new Set() });
    expect(policy.check('168.63.129.16')).toEqual({ ok: false, reason: 'not public (a cloud host service)' });
    expect(policy.check('::ffff:168.63.129.16').ok).toBe(false);
    expect(policy.check('168.63.129.15').ok).toBe(true);
    expect(policy.check('168.63.129.17').ok).toBe(true);
  });

  test.each(BLOCKED_RANGES.map((r) => [r.cidr, r.source] as const))(
    '%s (%s): first and last address blocked',
    (cidr) => {
      const v6 = cidr.includes(':');
      const first = v6 ? ipaddr.IPv6.networkAddressFromCIDR(cidr) : ipaddr.IPv4.networkAddressFromCIDR(cidr);
      const last = v6 ? ipaddr.IPv6.broadcastAddressFromCIDR(cidr) : ipaddr.IPv4.broadcastAddressFromCIDR(cidr);
      expect([isInBlockedRange(first), isInBlockedRange(last)]).toEqual([true, true]);
    },
  );

  test('every entry names its source and a reason', () => {
    for (const range of BLOCKED_RANGES) {
      expect(range.source.length).toBeGreaterThan(5);
      expect(range.why.length).toBeGreaterThan(2);
    }
  });
});

describe('refusals never repeat what a name resolved to', () => {
  const policy = createAddressPolicy({
    allowCidrs: [],
    ownAddresses: createOwnAddresses({ read: () => ({ eth0: [nic('93.184.215.99', 'IPv4')] }) }),
  });
  test.each([
    ['private', ['10.1.2.3']],
    ['loopback', ['127.0.0.1']],
    ['metadata', ['169.254.169.254']],
    ['ULA metadata', ['fd00:ec2::254']],
    ['Azure host', ['168.63.129.16']],
    ['own address', ['93.184.215.99']],
    ['mixed answer', ['93.184.215.14', '10.9.8.7']],
    ['NAT64 wrapper', ['64:ff9b::a01:203']],
  ])('%s', async (_name, answers) => {
    const target = parseWebhookUrl('https://api.shop.example/prefill') as WebhookTarget;
    const result = await resolveAndCheck(target, {
      resolve: async () => answers,
      policy,
      signal: AbortSignal.timeout(5000),
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toContain('api.shop.example');
    for (const answer of answers) expect(result.reason).not.toContain(answer);
    // Nor a piece of one (an IPv6 answer's groups, an IPv4 answer's first octets).
    expect(result.reason).not.toMatch(/\d+\.\d+\.\d+|[0-9a-f]+:[0-9a-f]*:/i);
  });
});
