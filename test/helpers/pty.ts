import { shellQuote } from '../../src/shell-word.ts';
/**
 * Runs a command on a pseudo-terminal through util-linux `script`, so the program sees
 * a TTY on stdin and stdout like a person's shell. `steps` wait for a prompt on the
 * screen, then type an answer; the whole screen output is returned.
 */
export async function runOnTerminal(
  argv: string[],
  steps: { waitFor: string; type: string }[],
  env: Record<string, string> = {},
  timeoutMs = 60_000,
): Promise<{ screen: string; exitCode: number }> {
  // A missing tool fails the test with what to install, never skips it.
  if (Bun.which('script') === null)
    throw new Error(
      "util-linux `script` is missing, so the terminal tests cannot run. Install Debian's bsdutils package (apt-get install bsdutils).",
    );
  const commandLine = argv.map(shellQuote).join(' ');
  const proc = Bun.spawn(['script', '-qec', commandLine, '/dev/null'], {
    env: { ...process.env, ...env },
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'pipe',
  });
  // A prompt that never comes, or a command that never ends, fails the test and leaves no
  // process behind.
  let timedOut = false;
  const deadline = setTimeout(() => {
    timedOut = true;
    proc.kill('SIGKILL');
  }, timeoutMs);
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  let screen = '';
  // Where the previous prompt ended: each prompt is looked for after it, never matched twice.
  let from = 0;
  const ended = (what: string) =>
    new Error(`${timedOut ? `killed after ${timeoutMs} ms` : 'exited'} ${what}: ${JSON.stringify(screen)}`);
  const readUntil = async (text: string) => {
    while (screen.indexOf(text, from) < 0) {
      const { done, value } = await reader.read();
      if (done) throw ended(`before ${JSON.stringify(text)}`);
      screen += decoder.decode(value);
    }
  };
  try {
    for (const step of steps) {
      await readUntil(step.waitFor);
      from = screen.indexOf(step.waitFor, from) + step.waitFor.length;
      proc.stdin.write(step.type);
      await proc.stdin.flush();
    }
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      screen += decoder.decode(value);
    }
    proc.stdin.end();
    const exitCode = await proc.exited;
    if (timedOut) throw ended('before it finished');
    return { screen, exitCode };
  } finally {
    clearTimeout(deadline);
    proc.kill('SIGKILL');
  }
}
