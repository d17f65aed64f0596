import { describe, expect, test } from 'bun:test';
import { CliFailure } from '../../cli/base-command.ts';
import { headerLinesFromText, parseHeaderLines } from '../../cli/lib/webhook-headers.ts';

const flag = (...texts: string[]) => texts.map((text, i) => ({ text, where: `--header #${i + 1}` }));

describe('parseHeaderLines', () => {
  test('splits at the first colon and trims optional whitespace around the value', () => {
    expect(parseHeaderLines(flag('Authorization: Bearer a:b:c', 'X-Empty:', 'X-Tabs:\t v \t'))).toEqual({
      Authorization: 'Bearer a:b:c',
      'X-Empty': '',
      'X-Tabs': 'v',
    });
  });

  const refused: [string, string, RegExp][] = [
    ['no colon', 'Authorization Bearer s3cr3t', /no colon/],
    ['empty name', ': value', /is not an HTTP token/],
    ['space in name', 'X Shop: 1', /is not an HTTP token/],
    ['separator in name', 'X(Shop): 1', /is not an HTTP token/],
    ['non-ASCII name', 'Ñame: 1', /is not an HTTP token/],
    ['CR in value', 'X-A: s3cr3t\rInjected: 1', /line break or NUL/],
    ['LF in value', 'X-A: s3cr3t\nInjected: 1', /line break or NUL/],
    ['NUL in value', 'X-A: s3cr3t\0', /line break or NUL/],
  ];
  for (const [name, line, message] of refused) {
    test(`refuses ${name} (exit 1) without repeating the value`, () => {
      let error: unknown;
      try {
        parseHeaderLines(flag(line));
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(CliFailure);
      expect((error as CliFailure).exitCode).toBe(1);
      expect((error as CliFailure).message).toMatch(message);
      expect((error as CliFailure).message).not.toContain('s3cr3t');
    });
  }

  test('refuses the same name twice, in any case', () => {
    expect(() => parseHeaderLines(flag('X-Shop: 1', 'x-shop: 2'))).toThrow('given more than once');
  });

  test('control characters in a refused name are shown escaped', () => {
    expect(() => parseHeaderLines(flag('X\u001b[2J: 1'))).toThrow('"X\\u001b[2J"');
  });
});

describe('headerLinesFromText', () => {
  test('one header per line; blank lines skipped; CRLF accepted; lines numbered for errors', () => {
    const lines = headerLinesFromText('Authorization: Bearer x\r\n\nX-Shop: 42\n');
    expect(lines).toEqual([
      { text: 'Authorization: Bearer x', where: 'line 1 of standard input' },
      { text: 'X-Shop: 42', where: 'line 3 of standard input' },
    ]);
    expect(parseHeaderLines(lines)).toEqual({ Authorization: 'Bearer x', 'X-Shop': '42' });
  });
});
