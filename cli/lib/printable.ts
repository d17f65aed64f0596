/**
 * Text from elsewhere (the server's messages and tables, a webhook's JSON keys) made
 * safe for a terminal: control characters (Unicode Cc: ESC, CR, BEL, C1 …) would let it
 * move the cursor, rewrite the screen or the window title, and invisible format
 * characters (Cf: bidirectional overrides, zero-width marks) would make it read as
 * something else. Each is shown as a visible `\u…` escape instead.
 */
const UNSAFE = /[\p{Cc}\p{Cf}]/gu;
const HAS_UNSAFE = /[\p{Cc}\p{Cf}]/u;
// Every unsafe character but the line feed: for whole messages and tables, whose lines are ours.
const UNSAFE_BUT_NEWLINE = /(?!\n)[\p{Cc}\p{Cf}]/gu;

/** `\u001b` as JSON writes it (a character past U+FFFF as its two surrogates, as JSON does). */
function visible(char: string): string {
  let out = '';
  for (let i = 0; i < char.length; i++) out += `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}

/**
 * One value (a cell, a key, a name): as it is when harmless, else quoted with every
 * control and format character escaped, so where it starts and ends stays clear.
 */
export function printable(text: string): string {
  if (!HAS_UNSAFE.test(text)) return text;
  return JSON.stringify(text).replace(UNSAFE, visible);
}

/** A message of one or more lines: escaped like {@link printable}, line feeds kept. */
export function printableLines(text: string): string {
  return text.replace(UNSAFE_BUT_NEWLINE, visible);
}
