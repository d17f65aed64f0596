import { describe, expect, test } from 'bun:test';
import { errorAnswer, schemaFailure } from '../../../src/http/error-answer.ts';
import { DatabaseTimeout } from '../../../src/db/faults.ts';
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

  test('a fault of the database is a 503 with Retry-After, never a 500; its cause is logged once a second, with the answers in between', () => {
    const { logger, lines } = capture();
    const hung = () => new DatabaseTimeout('PostgreSQL did not answer within 1500 ms');
    const answers = [0, 10, 500, 999].map((at, i) => errorAnswer(hung(), `req-${i}`, logger, 10_000 + at));
    for (const answer of answers) {
      expect(answer).toEqual({
        status: 503,
        body: { error: { code: 'not_ready', message: 'The database does not answer; try again in a moment.' } },
        headers: { 'Retry-After': '1' },
      });
    }
    // Another cause is logged at once; the first one again only a second after its line.
    const refused = Object.assign(new Error('Failed to connect'), { code: 'ERR_POSTGRES_CONNECTION_REFUSED' });
    errorAnswer(new Error('Failed query: select 1', { cause: refused }), 'req-4', logger, 10_500);
    errorAnswer(hung(), 'req-5', logger, 11_000);
    const logged = lines.map((line) => JSON.parse(line));
    expect(
      logged.map(({ level, msg, requestId, cause, repeats }) => ({ level, msg, requestId, cause, repeats })),
    ).toEqual([
      {
        level: 'error',
        msg: 'database fault: answered 503 not_ready',
        requestId: 'req-0',
        cause: 'DatabaseTimeout: PostgreSQL did not answer within 1500 ms',
        repeats: 0,
      },
      {
        level: 'error',
        msg: 'database fault: answered 503 not_ready',
        requestId: 'req-4',
        cause: 'Error ERR_POSTGRES_CONNECTION_REFUSED: Failed to connect',
        repeats: 0,
      },
      {
        level: 'error',
        msg: 'database fault: answered 503 not_ready',
        requestId: 'req-5',
        cause: 'DatabaseTimeout: PostgreSQL did not answer within 1500 ms',
        repeats: 3,
      },
    ]);
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
