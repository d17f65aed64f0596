import { CliFailure } from '../base-command.ts';
import { canPrompt, prompt } from './prompt.ts';

/**
 * Confirmation of a destructive command: on a terminal the person types `expected`
 * (an email) back; anywhere else the command refuses and names `--yes`.
 */
export async function confirmByTyping(expected: string, warning: string): Promise<void> {
  if (!canPrompt()) throw new CliFailure(`${warning} Standard input is not a terminal: pass --yes to confirm.`);
  process.stderr.write(`${warning}\n`);
  const typed = await prompt(`Type ${expected} to confirm: `, { hidden: false });
  if (typed.trim().toLowerCase() !== expected.trim().toLowerCase())
    throw new CliFailure('The email typed does not match; nothing was deleted.');
}
