import { HEADER_NAME } from '../../src/webhook/headers.ts';
import { invalidFlag } from '../base-command.ts';
import { printable } from './printable.ts';

const FORBIDDEN_IN_VALUE = /[\r\n\0]/;

/**
 * Parses "Name: value" lines (from --header flags and --header-stdin) into the
 * headers object of a webhook. Checked here so a bad header never leaves the machine;
 * error messages name the header or line but never repeat a value, which may be a secret.
 */
export function parseHeaderLines(lines: { text: string; where: string }[]): Record<string, string> {
  const headers: Record<string, string> = {};
  const seen = new Set<string>();
  for (const { text, where } of lines) {
    const colon = text.indexOf(':');
    if (colon < 0) throw invalidFlag(`${where} is not "Name: value" (no colon).`);
    const name = text.slice(0, colon).trim();
    // Optional whitespace around a value is not part of it (RFC 9110 §5.5).
    const value = text.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '');
    if (!HEADER_NAME.test(name))
      throw invalidFlag(
        `${where}: header name ${printable(name)} is not an HTTP token (letters, digits and !#$%&'*+-.^_\`|~).`,
      );
    if (FORBIDDEN_IN_VALUE.test(value))
      throw invalidFlag(`${where}: the value of ${name} contains a line break or NUL character.`);
    const key = name.toLowerCase();
    if (seen.has(key)) throw invalidFlag(`Header ${name} is given more than once.`);
    seen.add(key);
    headers[name] = value;
  }
  return headers;
}

/** The lines of --header-stdin: one header per line, blank lines skipped, CRLF accepted. */
export function headerLinesFromText(text: string): { text: string; where: string }[] {
  return text
    .split('\n')
    .map((line, index) => ({
      text: line.endsWith('\r') ? line.slice(0, -1) : line,
      where: `line ${index + 1} of standard input`,
    }))
    .filter((line) => line.text.trim() !== '');
}
