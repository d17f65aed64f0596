import { describe, expect, test } from 'bun:test';
import { parseJsonText } from '../../../src/http/body.ts';
import { AppError } from '../../../src/errors.ts';

const WIDGET = { widget: true };
const OWNER = { widget: false };
const NATIVE_WIDGET = { widget: true, flatSchema: true };

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return `${error.status} ${error.message}`;
    throw error;
  }
  throw new Error('expected a refusal');
}

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('parseJsonText', () => {
  test('nesting up to 32 levels parses; 33 is refused with 400', () => {
    expect(parseJsonText(nested(32), 'application/json', OWNER)).toBeArray();
    expect(refusal(() => parseJsonText(nested(33), 'application/json', OWNER))).toBe(
      '400 The request body nests deeper than 32 levels.',
    );
    expect(
      refusal(() => parseJsonText(`{"a":${'{"b":'.repeat(40)}1${'}'.repeat(40)}}`, 'application/json', WIDGET)),
    ).toBe('400 The request body nests deeper than 32 levels.');
  });

  test('a route with a flat schema takes any depth JSON.parse reads (its check never descends)', () => {
    expect(parseJsonText(nested(5000), 'application/json', NATIVE_WIDGET)).toBeArray();
    expect(refusal(() => parseJsonText(nested(5000).slice(1), 'application/json', NATIVE_WIDGET))).toBe(
      '400 The request body is not valid JSON.',
    );
  });

  test('brackets inside strings do not count as nesting', () => {
    const text = JSON.stringify({ apiKey: '['.repeat(100), domain: '{'.repeat(100), calcId: 'bmi' });
    expect(parseJsonText(text, 'application/json', WIDGET)).toEqual({
      apiKey: '['.repeat(100),
      domain: '{'.repeat(100),
      calcId: 'bmi',
    });
  });

  test('content types: JSON anywhere, text/plain on widget routes only; empty is undefined', () => {
    expect(parseJsonText('{"a":1}', 'Application/JSON; charset=utf-8', OWNER)).toEqual({ a: 1 });
    expect(parseJsonText('{"a":1}', 'text/plain;charset=UTF-8', WIDGET)).toEqual({ a: 1 });
    expect(refusal(() => parseJsonText('{"a":1}', 'text/plain', OWNER))).toStartWith('400 Send the body as JSON');
    expect(parseJsonText('', 'text/html', OWNER)).toBeUndefined();
  });

  test('a widget body holding U+FFFD is refused as invalid UTF-8; broken JSON is 400', () => {
    expect(refusal(() => parseJsonText('{"apiKey":"pk_\uFFFD"}', 'application/json', WIDGET))).toBe(
      '400 The request body is not valid UTF-8.',
    );
    expect(refusal(() => parseJsonText('{"apiKey":', 'application/json', WIDGET))).toBe(
      '400 The request body is not valid JSON.',
    );
  });
});
