import { describe, expect, test } from 'bun:test';
import { errorAnswer, schemaFailure } from '../../../src/http/error-answer.ts';
import { AppError } from '../../../src/errors.ts';
import { createLogger } from '../../../src/logger.ts';

function capture() {
  const lines: string[] = [];
  return { logger: createLogger((line) => lines.push(line)), lines };
}

describe('error answer', () => {
  test('an AppError becomes its envelope, status and extra headers', () => {
    const { logger, lines } = capture();
    const answer = errorAnswer(
      new AppError('rate_limited', 'Slow down.', undefined, { 'retry-after': '3' }),
      'req-1',
      logger,
    );
    expect(answer).toEqual({
      status: 429,
      body: { error: { code: 'rate_limited', message: 'Slow down.' } },
      headers: { 'retry-after': '3' },
    });
    expect(lines).toEqual([]);
  });

  test('anything else is a 500 that names the request id; the details go to the log only', () => {
    const { logger, lines } = capture();
    const answer = errorAnswer(new TypeError('db password is hunter2'), 'req-12345678', logger);
    expect(answer.status).toBe(500);
    expect(answer.body.error.code).toBe('internal');
    expect(answer.body.error.message).toContain('req-12345678');
    expect(JSON.stringify(answer)).not.toContain('hunter2');
    const logged = JSON.parse(lines[0] ?? '{}');
    expect(logged).toMatchObject({
      level: 'error',
      requestId: 'req-12345678',
      error: 'TypeError: db password is hunter2',
    });
  });

  test('a schema failure names the first field and lists up to ten', () => {
    const errors = Array.from({ length: 12 }, (_, i) => ({ path: `/fields/${i}`, message: 'Expected string' }));
    const failure = schemaFailure(errors);
    expect(failure.status).toBe(400);
    expect(failure.message).toBe('fields.0: Expected string.');
    expect(failure.details).toHaveLength(10);
    expect(schemaFailure(undefined).message).toBe('The request does not match the expected shape.');
  });
});
