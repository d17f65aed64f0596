import { describe, expect, test } from 'bun:test';
import { AppError } from '../../../src/errors.ts';
import { matchingOrigins, normaliseOrigin } from '../../../src/domains/origin.ts';

describe('normaliseOrigin', () => {
  test.each([
    ['https://shop.example', 'https://shop.example', false],
    ['https://Shop.EXAMPLE', 'https://shop.example', false],
    ['https://shop.example/', 'https://shop.example', false],
    ['https://shop.example:443', 'https://shop.example', false],
    ['http://shop.example:80', 'http://shop.example', false],
    ['http://shop.example:443', 'http://shop.example:443', false],
    ['https://shop.example:8443', 'https://shop.example:8443', false],
    ['https://bücher.example', 'https://xn--bcher-kva.example', false],
    ['https://ＳＨＯＰ.example', 'https://shop.example', false],
    ['http://127.0.0.1:8787', 'http://127.0.0.1:8787', false],
    ['http://[::1]:8080', 'http://[::1]:8080', false],
    ['https://*.shop.example', 'https://*.shop.example', true],
    ['https://*.Bücher.example:8443/', 'https://*.xn--bcher-kva.example:8443', true],
  ])('%s → %s', (raw, origin, wildcard) => {
    expect(normaliseOrigin(raw)).toEqual({ origin, wildcard });
  });

  test.each([
    'shop.example',
    '//shop.example',
    'ftp://shop.example',
    'javascript:alert(1)',
    'https://shop.example/path',
    'https://shop.example/?q=1',
    'https://shop.example?',
    'https://shop.example#top',
    'https://user:pw@shop.example',
    'https://@shop.example',
    'https://shop.example\\evil',
    'https://shop .example',
    'https://shop.example\n',
    'https://',
    'https://*.example.',
    'https://*.com',
    'https://a.*.shop.example',
    'https://**.shop.example',
    'https://*.1.2.3',
    `https://${'a'.repeat(300)}.example`,
  ])('refuses %p with 400', (raw) => {
    let error: unknown;
    try {
      normaliseOrigin(raw);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(400);
  });
});

describe('matchingOrigins', () => {
  test('an exact origin, then wildcards for each parent with at least two labels, port kept', () => {
    expect(matchingOrigins('https://a.b.shop.example:8443')).toEqual([
      'https://a.b.shop.example:8443',
      'https://*.b.shop.example:8443',
      'https://*.shop.example:8443',
    ]);
  });

  test('a bare two-label domain has no wildcard parent; IP hosts never match wildcards', () => {
    expect(matchingOrigins('https://shop.example')).toEqual(['https://shop.example']);
    expect(matchingOrigins('http://10.1.2.3:80')).toEqual(['http://10.1.2.3:80']);
    expect(matchingOrigins('http://[::1]:8080')).toEqual(['http://[::1]:8080']);
  });
});
