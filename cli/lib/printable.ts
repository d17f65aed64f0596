/**
 * Text from elsewhere (a webhook's JSON keys) made safe for a terminal: control
 * characters would otherwise let an answer move the cursor or rewrite the screen.
 */
export function printable(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point of this check
  return /[\u0000-\u001f\u007f-\u009f]/.test(text) ? JSON.stringify(text) : text;
}
