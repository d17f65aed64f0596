import { describe, expect, test } from 'bun:test';
import { createAddressPolicy } from '../../../src/webhook/address-policy.ts';
import {
  isWebhookUrlError,
  parseWebhookUrl,
  resolveAndCheck,
  systemResolver,
  type Resolver,
  type WebhookTarget,
} from '../../../src/webhook/url-check.ts';

const policy = createAddressPolicy({ allowCidrs: [] });

function parsed(raw: string): WebhookTarget {
  const result = parseWebhookUrl(raw);
  if (isWebhookUrlError(result)) throw new Error(`expected ${raw} to parse: ${result.reason}`);
  return result;
}

/** A resolver that answers from a table and counts its calls. */
function tableResolver(answers: Record<string, string[] | Error>): Resolver & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (hostname: string): Promise<string[]> => {
    calls.push(hostname);
    const answer = answers[hostname];
    if (answer === undefined) throw new Error(`ENOTFOUND ${hostname}`);
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return Object.assign(resolve, { calls });
}

const neverResolves: Resolver = () => new Promise<string[]>(() => {});

describe('parseWebhookUrl: schemes', () => {
  test.each([
    ['file:///etc/passwd'],
    ['ftp://example.com/'],
    ['gopher://example.com:70/_GET'],
    ['javascript:alert(1)'],
    ['data:application/json,{}'],
    ['ws://example.com/'],
    ['wss://example.com/'],
    ['mailto:a@example.com'],
    ['blob:https://example.com/uuid'],
    ['about:blank'],
    ['dict://example.com:2628/'],
    ['httpx://example.com/'],
  ])('%s -> bad_scheme', (raw) => {
    const result = parseWebhookUrl(raw);
    expect(isWebhookUrlError(result) && result.outcome).toBe('bad_scheme');
  });

  test.each([['http://example.com/'], ['https://example.com/'], ['HTTP://EXAMPLE.COM/'], ['HtTpS://example.com/x']])(
    '%s is accepted',
    (raw) => {
      expect(isWebhookUrlError(parseWebhookUrl(raw))).toBe(false);
    },
  );
});

describe('parseWebhookUrl: user info', () => {
  test.each([
    ['http://user@example.com/'],
    ['http://user:pass@example.com/'],
    ['http://:pass@example.com/'],
    ['https://example.com@evil.test/'],
    ['http://a%40b@example.com/'],
  ])('%s -> invalid', (raw) => {
    const result = parseWebhookUrl(raw);
    expect(isWebhookUrlError(result) && result.outcome).toBe('invalid');
  });
});

describe('parseWebhookUrl: ports', () => {
  test.each([
    ['http://example.com:0/', null],
    ['http://example.com:1/', null],
    ['http://example.com:22/', null],
    ['http://example.com:25/', null],
    ['http://example.com:79/', null],
    ['http://example.com:80/', 80],
    ['http://example.com:443/', 443],
    ['https://example.com:80/', 80],
    ['http://example.com:1023/', null],
    ['http://example.com:1024/', 1024],
    ['http://example.com:8080/', 8080],
    ['http://example.com:65535/', 65535],
    ['http://example.com/', 80],
    ['https://example.com/', 443],
    ['http://example.com:0080/', 80],
    ['http://127.0.0.2:22/', null],
  ])('%s -> port %p', (raw, port) => {
    const result = parseWebhookUrl(raw);
    if (port === null) {
      expect(isWebhookUrlError(result) && result.outcome).toBe('blocked_address');
    } else {
      expect(isWebhookUrlError(result) ? result.reason : result.port).toBe(port);
    }
  });

  test.each([
    ['http://example.com:65536/'],
    ['http://example.com:-1/'],
    ['http://example.com:+80/'],
    ['http://example.com:8o/'],
  ])('%s does not parse -> invalid', (raw) => {
    const result = parseWebhookUrl(raw);
    expect(isWebhookUrlError(result) && result.outcome).toBe('invalid');
  });
});

describe('parseWebhookUrl: characters refused before parsing', () => {
  test.each([
    ['backslash host', 'http:\\\\127.0.0.1\\'],
    ['backslash before @', 'http://example.com\\@127.0.0.1/'],
    ['backslash in path', 'http://example.com/a\\b'],
    ['leading space', ' http://example.com/'],
    ['trailing space', 'http://example.com/ '],
    ['inner space', 'http://exa mple.com/'],
    ['tab', 'http://exa\tmple.com/'],
    ['newline', 'http://example.com/\n'],
    ['carriage return', 'http://example.com/\r'],
    ['leading newline', '\nhttp://example.com/'],
    ['no-break space', 'http://example.com/\u00a0'],
    ['ideographic space', 'http://example.com\u3000/'],
    ['line separator', 'http://example.com/\u2028'],
    ['BOM', '\ufeffhttp://example.com/'],
    ['NUL', 'http://example.com/\u0000'],
    ['SOH', 'http://\u0001example.com/'],
    ['ESC', 'http://example.com/\u001b'],
    ['DEL', 'http://example.com/\u007f'],
    ['C1 NEL', 'http://example.com/\u0085'],
    ['C1 CSI', 'http://example.com/\u009b'],
  ])('%s -> invalid', (_label, raw) => {
    const result = parseWebhookUrl(raw);
    expect(isWebhookUrlError(result) && result.outcome).toBe('invalid');
  });
});

describe('parseWebhookUrl: malformed', () => {
  test.each([
    [''],
    ['example.com'],
    ['/relative/path'],
    ['//example.com/'],
    ['http://'],
    ['http://[::1/'],
    ['http://999.1.1.1/'],
    ['http://4294967296/'],
    ['http://[fe80::1%25eth0]/'],
    [`http://example.com/${'a'.repeat(3000)}`],
  ])('%j -> invalid', (raw) => {
    const result = parseWebhookUrl(raw);
    expect(isWebhookUrlError(result) && result.outcome).toBe('invalid');
  });
});

describe('parseWebhookUrl: names that always mean this machine', () => {
  test.each([
    ['http://localhost/'],
    ['http://LOCALHOST:8080/'],
    ['http://localhost./'],
    ['http://localhost.../'],
    ['http://foo.localhost/'],
    ['https://a.b.localhost./x'],
    ['http://%6cocalhost/'],
  ])('%s -> blocked_address', (raw) => {
    const result = parseWebhookUrl(raw);
    expect(isWebhookUrlError(result) && result.outcome).toBe('blocked_address');
  });

  test.each([['http://localhost.example.com/'], ['http://notlocalhost/']])('%s is left to resolution', (raw) => {
    expect(isWebhookUrlError(parseWebhookUrl(raw))).toBe(false);
  });
});

describe('parseWebhookUrl: target shape', () => {
  test.each([
    ['http://example.com/a?b=1', { hostname: 'example.com', port: 80, isIpLiteral: false, ip: undefined }],
    [
      'https://Shop.Example.com:8443/p',
      { hostname: 'shop.example.com', port: 8443, isIpLiteral: false, ip: undefined },
    ],
    ['http://8.8.8.8/', { hostname: '8.8.8.8', port: 80, isIpLiteral: true, ip: '8.8.8.8' }],
    ['http://134744072/', { hostname: '8.8.8.8', port: 80, isIpLiteral: true, ip: '8.8.8.8' }],
    [
      'http://[2606:4700:4700::1111]:8080/',
      { hostname: '2606:4700:4700::1111', port: 8080, isIpLiteral: true, ip: '2606:4700:4700::1111' },
    ],
    ['http://[::1]/', { hostname: '::1', port: 80, isIpLiteral: true, ip: '::1' }],
  ])('%s', (raw, expected) => {
    const target = parsed(raw);
    expect({ hostname: target.hostname, port: target.port, isIpLiteral: target.isIpLiteral, ip: target.ip }).toEqual(
      expected,
    );
  });
});

// Every IPv4 notation and IPv6 spelling, through the URL parser and the policy. A
// literal must be judged without any lookup.
const literalUrls: [string, string][] = [
  ['http://127.0.0.1/', 'loopback'],
  ['http://2130706433/', 'loopback, decimal'],
  ['http://0x7f000001/', 'loopback, hex'],
  ['http://0x7f.1/', 'loopback, hex short'],
  ['http://0x7F.0x0.0x0.0x1/', 'loopback, hex parts'],
  ['http://017700000001/', 'loopback, octal'],
  ['http://0177.0.0.1/', 'loopback, octal part'],
  ['http://0177.0.0.01/', 'loopback, octal parts'],
  ['http://127.1/', 'loopback, short'],
  ['http://127.0.1/', 'loopback, three parts'],
  ['http://127.0.0.1./', 'loopback, trailing dot'],
  ['http://１２７.０.０.１/', 'loopback, full-width digits'],
  ['http://%31%32%37.0.0.1/', 'loopback, percent-encoded'],
  ['http://127.0.0.2:8080/', 'loopback 127.0.0.2 (not allowlisted here)'],
  ['http://0/', 'unspecified, short'],
  ['http://0.0.0.0/', 'unspecified'],
  ['http://0x0/', 'unspecified, hex'],
  ['http://10.1/', 'private, short'],
  ['http://167772161/', 'private 10.0.0.1, decimal'],
  ['http://012.0.0.1/', 'private 10.0.0.1, octal'],
  ['http://0xc0a80101/', 'private 192.168.1.1, hex'],
  ['http://192.168.257/', 'private 192.168.1.1, short overflow'],
  ['http://172.16.0.1/', 'private 172.16'],
  ['http://169.254.169.254/', 'metadata'],
  ['http://2852039166/', 'metadata, decimal'],
  ['http://0xa9fea9fe/', 'metadata, hex'],
  ['http://0251.0376.0251.0376/', 'metadata, octal'],
  ['http://169.254.43518/', 'metadata, short'],
  ['http://100.64.0.1/', 'CGNAT'],
  ['http://100.64.1/', 'CGNAT, short'],
  ['http://192.0.2.1/', 'documentation'],
  ['http://198.18.0.1/', 'benchmarking'],
  ['http://224.1/', 'multicast, short'],
  ['http://0xe0000001/', 'multicast, hex'],
  ['http://240.0.0.1/', 'reserved'],
  ['http://4294967295/', 'broadcast, decimal'],
  ['http://0xffffffff/', 'broadcast, hex'],
  ['http://255.255.255.255/', 'broadcast'],
  ['http://[::1]/', 'IPv6 loopback'],
  ['http://[0:0:0:0:0:0:0:1]/', 'IPv6 loopback, long'],
  ['http://[0000:0000:0000:0000:0000:0000:0000:0001]/', 'IPv6 loopback, zero-padded'],
  ['http://[::]/', 'IPv6 unspecified'],
  ['http://[::ffff:127.0.0.1]/', 'mapped loopback'],
  ['http://[::ffff:7f00:1]/', 'mapped loopback, hex'],
  ['http://[0:0:0:0:0:ffff:7f00:1]/', 'mapped loopback, long'],
  ['http://[::FFFF:7F00:0001]/', 'mapped loopback, upper case'],
  ['http://[::ffff:169.254.169.254]/', 'mapped metadata'],
  ['http://[::ffff:a9fe:a9fe]/', 'mapped metadata, hex'],
  ['http://[::ffff:10.0.0.1]/', 'mapped private'],
  ['http://[::127.0.0.1]/', 'IPv4-compatible loopback'],
  ['http://[::8.8.8.8]/', 'IPv4-compatible public'],
  ['http://[64:ff9b::127.0.0.1]/', 'NAT64 loopback'],
  ['http://[64:ff9b::a9fe:a9fe]/', 'NAT64 metadata'],
  ['http://[64:ff9b:1::10.0.0.1]/', 'local NAT64 private'],
  ['http://[2002:7f00:1::]/', '6to4 loopback'],
  ['http://[2002:a9fe:a9fe::1]/', '6to4 metadata'],
  ['http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/', 'Teredo loopback'],
  ['http://[fe80::1]/', 'IPv6 link-local'],
  ['http://[fd00:ec2::254]/', 'AWS metadata IPv6'],
  ['http://[fc00::1]/', 'unique local'],
  ['http://[ff02::1]/', 'IPv6 multicast'],
  ['http://[fec0::1]/', 'site-local'],
  ['http://[2001:db8::1]/', 'documentation'],
  ['http://[3fff::1]/', 'documentation 3fff::/20'],
  ['http://[100::1]/', 'discard'],
];

describe('resolveAndCheck: IP literals in every notation', () => {
  test.each(literalUrls)('%s (%s) -> blocked_address, no lookup', async (raw) => {
    const resolver = tableResolver({});
    const target = parsed(raw);
    expect(target.isIpLiteral).toBe(true);
    const result = await resolveAndCheck(target, { resolve: resolver, policy, signal: AbortSignal.timeout(1000) });
    expect(result.ok ? 'ok' : result.outcome).toBe('blocked_address');
    expect(resolver.calls).toEqual([]);
  });

  test.each([
    ['http://8.8.8.8/', '8.8.8.8'],
    ['http://134744072/', '8.8.8.8'],
    ['http://0x08080808/', '8.8.8.8'],
    ['http://1.1/', '1.0.0.1'],
    ['http://[2606:4700:4700::1111]/', '2606:4700:4700::1111'],
    ['http://[2606:4700:4700:0:0:0:0:1111]/', '2606:4700:4700::1111'],
    ['http://[::ffff:8.8.8.8]/', '::ffff:808:808'],
  ])('%s passes as %s, no lookup', async (raw, address) => {
    const resolver = tableResolver({});
    const result = await resolveAndCheck(parsed(raw), { resolve: resolver, policy, signal: AbortSignal.timeout(1000) });
    expect(result).toEqual({ ok: true, address });
    expect(resolver.calls).toEqual([]);
  });
});

describe('resolveAndCheck: names', () => {
  test.each([
    [['8.8.8.8'], { ok: true, address: '8.8.8.8' }],
    [['8.8.8.8', '1.1.1.1'], { ok: true, address: '8.8.8.8' }],
    [['2606:4700:4700::1111', '1.1.1.1'], { ok: true, address: '2606:4700:4700::1111' }],
    [['8.8.8.8', '127.0.0.1'], 'blocked_address'],
    [['127.0.0.1', '8.8.8.8'], 'blocked_address'],
    [['8.8.8.8', '10.0.0.1'], 'blocked_address'],
    [['1.1.1.1', '169.254.169.254'], 'blocked_address'],
    [['2606:4700:4700::1111', '::1'], 'blocked_address'],
    [['8.8.8.8', 'fd00:ec2::254'], 'blocked_address'],
    [['::ffff:127.0.0.1'], 'blocked_address'],
    [['64:ff9b::a00:1'], 'blocked_address'],
    [['8.8.8.8', 'not-an-ip'], 'blocked_address'],
    [['127.1'], 'blocked_address'],
    [['2130706433'], 'blocked_address'],
    [['fe80::1%eth0'], 'blocked_address'],
    [[], 'unreachable'],
    [new Error('ENOTFOUND'), 'unreachable'],
  ])('answer %j -> %j, exactly one lookup', async (answer, expected) => {
    const resolver = tableResolver({ 'shop.example.com': answer });
    const result = await resolveAndCheck(parsed('https://shop.example.com/prefill'), {
      resolve: resolver,
      policy,
      signal: AbortSignal.timeout(1000),
    });
    const actual: unknown = result.ok ? result : result.outcome;
    expect(actual).toEqual(expected);
    expect(resolver.calls).toEqual(['shop.example.com']);
  });

  test('a resolver that throws synchronously is unreachable, not a throw', async () => {
    const resolve: Resolver = () => {
      throw new Error('boom');
    };
    const result = await resolveAndCheck(parsed('http://shop.example.com/'), {
      resolve,
      policy,
      signal: AbortSignal.timeout(1000),
    });
    expect(result.ok ? 'ok' : result.outcome).toBe('unreachable');
  });

  test('a lookup that never answers ends with the budget as timeout', async () => {
    const started = performance.now();
    const result = await resolveAndCheck(parsed('http://slow.example.com/'), {
      resolve: neverResolves,
      policy,
      signal: AbortSignal.timeout(100),
    });
    const elapsed = performance.now() - started;
    expect(result.ok ? 'ok' : result.outcome).toBe('timeout');
    expect(elapsed).toBeGreaterThanOrEqual(95);
    expect(elapsed).toBeLessThan(400);
  });

  test('an already spent budget does not even start a lookup', async () => {
    const resolver = tableResolver({ 'shop.example.com': ['8.8.8.8'] });
    const result = await resolveAndCheck(parsed('http://shop.example.com/'), {
      resolve: resolver,
      policy,
      signal: AbortSignal.abort(),
    });
    expect(result.ok ? 'ok' : result.outcome).toBe('timeout');
    expect(resolver.calls).toEqual([]);
  });
});

describe('systemResolver', () => {
  test('answers with IP strings from the system (localhost via the hosts file)', async () => {
    const answers = await systemResolver('localhost');
    expect(answers.length).toBeGreaterThan(0);
    for (const answer of answers) expect(['127.0.0.1', '::1']).toContain(answer);
  });
});
