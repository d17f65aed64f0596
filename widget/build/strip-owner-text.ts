/**
 * Drops text from the calculator sources that visitors never see before they go into
 * the widget bundle: a calculator's `description` and `notes` (shown by the catalogue
 * routes and to owners) and the `help` of pre-fill keys, which names API keys in
 * backquotes (`weightKg`) and is never rendered. About a seventh of the script's gzip size.
 *
 * It rewrites only properties whose value is a plain string literal, a template whose
 * `${}` parts hold no braces, or a `+` chain of them, replacing the value with ''.
 * Anything else is left as it is, so a form it does not understand costs bytes, never
 * correctness.
 */
const PROPERTY = /\b(description|notes|help)\s*:\s*/g;

/** Index just past a string literal starting at `start`, or -1. */
function endOfStringLiteral(source: string, start: number): number {
  const quote = source[start];
  if (quote !== "'" && quote !== '"' && quote !== '`') return -1;
  for (let i = start + 1; i < source.length; i += 1) {
    const char = source[i];
    if (char === '\\') i += 1;
    else if (quote === '`' && char === '$' && source[i + 1] === '{') {
      // A simple substitution (`${label}`): skip to its brace; nested braces are not understood.
      const close = source.indexOf('}', i);
      if (close < 0 || source.slice(i + 2, close).includes('{')) return -1;
      i = close;
    } else if (char === quote) return i + 1;
    else if (char === '\n' && quote !== '`') return -1;
  }
  return -1;
}

function skipSpace(source: string, index: number): number {
  while (index < source.length && /\s/.test(source[index] ?? '')) index += 1;
  return index;
}

/** Index just past a `'a' + "b" + `c`` chain starting at `start`, or -1. */
function endOfLiteralChain(source: string, start: number): number {
  let end = endOfStringLiteral(source, start);
  if (end < 0) return -1;
  for (;;) {
    const next = skipSpace(source, end);
    if (source[next] !== '+') break;
    const following = endOfStringLiteral(source, skipSpace(source, next + 1));
    if (following < 0) return -1;
    end = following;
  }
  // The value must end the property: a comma or the closing brace follows.
  const after = source[skipSpace(source, end)];
  return after === ',' || after === '}' ? end : -1;
}

export function stripOwnerText(source: string): string {
  let output = '';
  let copied = 0;
  for (const match of source.matchAll(PROPERTY)) {
    const valueStart = match.index + match[0].length;
    if (valueStart < copied) continue;
    const valueEnd = endOfLiteralChain(source, valueStart);
    if (valueEnd < 0) continue;
    // Help a visitor reads stays; help that quotes API keys in backquotes goes.
    if (match[1] === 'help' && !source.slice(valueStart + 1, valueEnd - 1).includes('`')) continue;
    output += `${source.slice(copied, valueStart)}''`;
    copied = valueEnd;
  }
  return output + source.slice(copied);
}

/**
 * What stripOwnerText left empty goes altogether, with each calculator's `category` (the
 * catalogue's grouping, which the widget never shows): a few hundred bytes of the bundle.
 */
export function dropStrippedText(source: string): string {
  return source.replace(/\b(?:description|notes|help):\s*'',?/g, '').replace(/\bcategory:\s*'[a-z]+',?/g, '');
}
