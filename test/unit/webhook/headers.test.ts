import { describe, expect, test } from 'bun:test';
import { buildRequestHeaders, validateWebhookHeaders } from '../../../src/webhook/headers.ts';

describe('validateWebhookHeaders', () => {
  test.each([
    [{}, true],
    [{ Authorization: 'Bearer s3cr3t' }, true],
    [{ 'X-Api-Key': 'k', Accept: 'application/json', 'User-Agent': 'Mine', Cookie: 'a=b' }, true],
    [{ 'X-Latin1': 'café' }, true],
    [{ 'X-Empty': '' }, true],
    [{ Host: 'evil.test' }, false],
    [{ host: 'evil.test' }, false],
    [{ 'Content-Length': '0' }, false],
    [{ 'Transfer-Encoding': 'chunked' }, false],
    [{ Connection: 'close' }, false],
    [{ 'Keep-Alive': 'timeout=5' }, false],
    [{ Upgrade: 'websocket' }, false],
    [{ TE: 'trailers' }, false],
    [{ Trailer: 'X' }, false],
    [{ 'Proxy-Authorization': 'Basic x' }, false],
    [{ 'Proxy-Connection': 'keep-alive' }, false],
    [{ 'X-A': 'a\r\nX-Injected: 1' }, false],
    [{ 'X-A': 'a\nb' }, false],
    [{ 'X-A': 'a\rb' }, false],
    [{ 'X-A': 'a\u0000b' }, false],
    [{ 'X-A': 'a\u001b[31mb' }, false],
    [{ 'X-A': 'a\u0001b' }, false],
    [{ 'X-A': 'a\u007fb' }, false],
    [{ 'X-A': 'a\u009bb' }, false],
    [{ 'X-A': 'a\tb' }, true],
    [{ 'X-A': 'euro €' }, false],
    [{ 'X A': 'v' }, false],
    [{ 'X-A:': 'v' }, false],
    [{ '': 'v' }, false],
    [{ 'X-Ä': 'v' }, false],
    [{ 'X-A': 1 }, false],
    [{ 'X-A': 'v', 'x-a': 'w' }, false],
    [Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`X-H${i}`, 'v'])), true],
    [Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`X-H${i}`, 'v'])), false],
    [{ 'X-Big': 'v'.repeat(8 * 1024 - 'X-Big'.length) }, true],
    [{ 'X-Big': 'v'.repeat(8 * 1024 - 'X-Big'.length + 1) }, false],
    [null, false],
    [[], false],
    ['Authorization: x', false],
  ])('%j -> valid=%p', (input, ok) => {
    expect(validateWebhookHeaders(input).ok).toBe(ok);
  });

  test('a __proto__ header name stays an own entry', () => {
    const result = validateWebhookHeaders(JSON.parse('{"__proto__": "v"}'));
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(Object.getPrototypeOf(result.headers)).toBe(Object.prototype);
      expect(Object.keys(result.headers)).toEqual(['__proto__']);
    }
  });
});

describe('buildRequestHeaders', () => {
  test.each([
    [{}, { accept: 'application/json', 'user-agent': 'svc/1', host: 'shop.test:8080' }],
    [{ accept: 'text/plain' }, { accept: 'text/plain', 'user-agent': 'svc/1', host: 'shop.test:8080' }],
    [{ 'USER-AGENT': 'mine' }, { accept: 'application/json', 'user-agent': 'mine', host: 'shop.test:8080' }],
    [
      { Host: 'evil.test', 'X-A': 'b' },
      { accept: 'application/json', 'user-agent': 'svc/1', host: 'shop.test:8080', 'x-a': 'b' },
    ],
    [
      { Connection: 'close', 'X-Bad': 'a\nb' },
      { accept: 'application/json', 'user-agent': 'svc/1', host: 'shop.test:8080' },
    ],
  ])('%j', (configured, expected) => {
    const headers = buildRequestHeaders(configured, { userAgent: 'svc/1', host: 'shop.test:8080' });
    expect(Object.fromEntries(headers)).toEqual(expected);
  });
});
