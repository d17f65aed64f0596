import { describe, expect, test } from 'bun:test';
import { corsHeaders, preflightAnswer } from '../../../src/http/cors.ts';

describe('CORS policies', () => {
  test('any-origin routes let every page read the answer; same-origin routes add nothing', () => {
    expect(corsHeaders('any-origin')).toEqual({ 'access-control-allow-origin': '*' });
    expect(corsHeaders('same-origin')).toBeUndefined();
  });

  test('a preflight is a 204 that allows JSON POSTs, cached a day, with the request id', () => {
    const answer = preflightAnswer('req-12345678');
    expect(answer.status).toBe(204);
    expect(Object.fromEntries(answer.headers)).toEqual({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, POST, OPTIONS',
      'access-control-allow-headers': 'Content-Type',
      'access-control-max-age': '86400',
      'x-request-id': 'req-12345678',
    });
  });
});
