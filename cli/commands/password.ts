import { Flags } from '@oclif/core';
import { CliFailure } from '../base-command.ts';
import type { NewTokenBody } from '../../src/api-bodies.ts';
import { readLogin, writeLogin } from '../lib/credentials.ts';
import { canPrompt, prompt } from '../lib/prompt.ts';
import { readStdin } from '../lib/stdin.ts';
import { OwnerCommand } from '../owner-command.ts';

export default class Password extends OwnerCommand {
  static override summary = "Change your account's password; every other session is signed out.";
  static override description =
    'Asks for the current and the new password (twice) on the terminal without showing them; in scripts pipe both in with --password-stdin, the current one on the first line and the new one on the second. ' +
    'The server answers with a new token, which is stored; every other token of the account stops working. ' +
    'With --json, stdout holds the body of POST /v1/account/password.';
  static override examples = [
    '<%= config.bin %> password',
    'printf "%s\\n%s\\n" "$OLD_PASSWORD" "$NEW_PASSWORD" | <%= config.bin %> password --password-stdin',
  ];
  static override flags = {
    'password-stdin': Flags.boolean({
      description: 'read the current password from the first line of standard input, the new one from the second',
    }),
  };

  async run() {
    const { flags } = await this.parse(Password);
    const api = this.api(flags);
    const input = flags['password-stdin'] ? await fromStdin() : await fromTerminal();
    const { body } = await api.post<NewTokenBody>('/v1/account/password', { body: input });
    const login = readLogin();
    // Keep the new token where the old one was (CALC_TOKEN users store their own).
    if (login && login.apiUrl === api.baseUrl) writeLogin({ ...login, token: body.token, expiresAt: body.expiresAt });
    this.log('Password changed. Every other session of this account is signed out; this one goes on.');
    return body;
  }
}

async function fromStdin(): Promise<{ currentPassword: string; newPassword: string }> {
  const [currentPassword = '', newPassword = ''] = (await readStdin()).split(/\r?\n/);
  if (currentPassword === '' || newPassword === '')
    throw new CliFailure('--password-stdin needs two lines: the current password, then the new one.');
  return { currentPassword, newPassword };
}

async function fromTerminal(): Promise<{ currentPassword: string; newPassword: string }> {
  if (!canPrompt())
    throw new CliFailure(
      `Standard input is not a terminal, so the passwords cannot be asked for. Use --password-stdin, e.g. printf '%s\\n%s\\n' "$OLD_PASSWORD" "$NEW_PASSWORD" | calc password --password-stdin`,
    );
  const currentPassword = await prompt('Current password: ', { hidden: true });
  const newPassword = await prompt('New password: ', { hidden: true });
  if (newPassword === '') throw new CliFailure('No new password given; nothing was changed.');
  if ((await prompt('Repeat new password: ', { hidden: true })) !== newPassword)
    throw new CliFailure('The two new passwords differ; nothing was changed.');
  return { currentPassword, newPassword };
}
