import { describe, expect, test } from 'bun:test';
import { requestClientIp } from '../../../src/http/client-ip.ts';

const requestWith = (forwardedFor: string | null) =>
  new Request('http://calc.test/', { headers: forwardedFor === null ? {} : { 'x-forwarded-for': forwardedFor } });

describe('client IP behind proxies', () => {
  test.each([
    ['no trusted proxies: the header is ignored', [], '203.0.113.9', '198.51.100.1', '203.0.113.9'],
    ['peer not trusted: the header is ignored', ['10.0.0.0/8'], '203.0.113.9', '198.51.100.1', '203.0.113.9'],
    ['trusted peer: the last untrusted hop', ['10.0.0.0/8'], '10.0.0.5', '198.51.100.1, 192.0.2.7', '192.0.2.7'],
    ['trusted chain: skip every trusted hop', ['10.0.0.0/8'], '10.0.0.5', '198.51.100.1, 10.0.0.9', '198.51.100.1'],
    ['a forged left-most entry does not win', ['10.0.0.0/8'], '10.0.0.5', '1.2.3.4, 198.51.100.1', '198.51.100.1'],
    ['IPv4-mapped peer matches an IPv4 range', ['127.0.0.1/32'], '::ffff:127.0.0.1', '198.51.100.1', '198.51.100.1'],
    ['garbage hop: fall back to the peer', ['10.0.0.0/8'], '10.0.0.5', 'not-an-ip', '10.0.0.5'],
    ['no header', ['10.0.0.0/8'], '10.0.0.5', null, '10.0.0.5'],
  ] as const)('%s', (_name, trusted, peer, header, expected) => {
    expect(requestClientIp([...trusted], () => peer)(requestWith(header))).toBe(expected);
  });

  test('a request whose peer is not known counts as "unknown", with or without trusted proxies', () => {
    expect(requestClientIp([], () => undefined)(requestWith('198.51.100.1'))).toBe('unknown');
    expect(requestClientIp(['10.0.0.0/8'], () => undefined)(requestWith('198.51.100.1'))).toBe('unknown');
  });
});
