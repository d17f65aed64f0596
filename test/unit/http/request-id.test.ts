import { describe, expect, test } from 'bun:test';
import { requestIdOf } from '../../../src/http/request-id.ts';

const withId = (id?: string) =>
  new Request('http://calc.test/x', { headers: id === undefined ? {} : { 'x-request-id': id } });

describe('requestIdOf', () => {
  test("keeps a well-formed incoming id (a proxy's)", () => {
    expect(requestIdOf(withId('proxy-abc.123_XYZ'))).toBe('proxy-abc.123_XYZ');
  });

  test('generates distinct ids when none or a malformed one comes in', () => {
    const ids = [
      requestIdOf(withId()),
      requestIdOf(withId('short')),
      requestIdOf(withId('has space in it')),
      requestIdOf(withId('"quoted-json-breaker"')),
      requestIdOf(withId('x'.repeat(65))),
    ];
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{12}-[0-9a-z]+$/);
  });
});
