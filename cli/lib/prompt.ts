import { CliFailure, EXIT } from '../base-command.ts';

/** True when a person can answer prompts: standard input is a terminal. */
export function canPrompt(): boolean {
  return process.stdin.isTTY === true && typeof process.stdin.setRawMode === 'function';
}

const ENTER = new Set(['\r', '\n']);
const CTRL_C = '\u0003';
const CTRL_D = '\u0004';
const CTRL_U = '\u0015';
const BACKSPACE = new Set(['\u007f', '\b']);

/**
 * Asks one question on the terminal. The prompt goes to stderr so `--json` output stays
 * clean. The terminal is put in raw mode, so it echoes nothing by itself: with
 * `hidden` the typed characters are never written anywhere (a password stays off the
 * screen and out of terminal recordings); otherwise they are echoed by hand.
 */
export function prompt(question: string, options: { hidden: boolean }): Promise<string> {
  const stdin = process.stdin;
  const out = process.stderr;
  // Raw mode before the prompt is shown: whatever is typed after seeing it is never echoed.
  stdin.setRawMode(true);
  out.write(question);
  let answer = '';
  const echo = (text: string) => {
    if (!options.hidden) out.write(text);
  };

  return new Promise<string>((resolve, reject) => {
    const finish = (error: CliFailure | null) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      out.write('\n');
      if (error) reject(error);
      else resolve(answer);
    };
    const onData = (chunk: Buffer | string) => {
      const text = String(chunk);
      // Arrow keys and other escape sequences: ignore rather than store control bytes.
      if (text.startsWith('\u001b')) return;
      for (const char of text) {
        if (ENTER.has(char)) return finish(null);
        if (char === CTRL_C || (char === CTRL_D && answer === ''))
          return finish(new CliFailure('Cancelled.', EXIT.failure, 'cancelled'));
        if (BACKSPACE.has(char)) {
          if (answer !== '') echo('\b \b');
          answer = Array.from(answer).slice(0, -1).join('');
        } else if (char === CTRL_U) {
          echo('\b \b'.repeat(Array.from(answer).length));
          answer = '';
        } else if (char >= ' ') {
          answer += char;
          echo(char);
        }
      }
    };
    stdin.setEncoding('utf8');
    stdin.on('data', onData);
    stdin.resume();
  });
}
