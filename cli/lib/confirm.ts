import { Flags } from '@oclif/core';
import { CliFailure, EXIT } from '../base-command.ts';
import { canPrompt, prompt } from './prompt.ts';

/** The `--yes` flag of every command that asks before it destroys something. */
export const yesFlag = Flags.boolean({ char: 'y', description: 'do not ask for confirmation (for scripts)' });

/** Off a terminal (a script, a pipe) nobody can answer: refuse, and name `--yes`. */
function requireTerminal(warning: string): void {
  if (!canPrompt())
    throw new CliFailure(
      `${warning} Standard input is not a terminal: pass --yes to confirm.`,
      EXIT.failure,
      'confirmation_required',
    );
}

/**
 * Confirmation of a destructive command that is easy to undo in part only: on a terminal
 * the person answers y; anywhere else (a script, a pipe) the command refuses and names
 * `--yes`, so nothing is destroyed by a script that did not say so.
 */
export async function confirmAction(warning: string, question: string): Promise<void> {
  requireTerminal(warning);
  process.stderr.write(`${warning}\n`);
  const answer = await prompt(`${question} [y/N] `, { hidden: false });
  if (!/^y(es)?$/i.test(answer.trim()))
    throw new CliFailure('Cancelled; nothing was changed.', EXIT.failure, 'cancelled');
}

/**
 * Confirmation of a destructive command: on a terminal the person types `expected`
 * (an email) back; anywhere else the command refuses and names `--yes`.
 */
export async function confirmByTyping(expected: string, warning: string): Promise<void> {
  requireTerminal(warning);
  process.stderr.write(`${warning}\n`);
  const typed = await prompt(`Type ${expected} to confirm: `, { hidden: false });
  if (typed.trim().toLowerCase() !== expected.trim().toLowerCase())
    throw new CliFailure('The email typed does not match; nothing was deleted.', EXIT.failure, 'cancelled');
}
