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
    'With --rotate-signing-secret the signing secret is replaced too and the current one stops at once (do that when a session or the password leaked). ' +
    'With --json, stdout holds the body of POST /v1/account/password.';
  static override examples = [
    '<%= config.bin %> password',
    'printf "%s\\n%s\\n" "$OLD_PASSWORD" "$NEW_PASSWORD" | <%= config.bin %> password --password-stdin',
    '<%= config.bin %> password --rotate-signing-secret',
  ];
  static override flags = {
    'password-stdin': Flags.boolean({
      description: 'read the current password from the first line of standard input, the new one from the second',
    }),
    'rotate-signing-secret': Flags.boolean({
      description: 'also replace the signing secret; the current one stops at once (your backend needs the new one)',
    }),
  };

  async run() {
    const { flags } = await this.parse(Password);
    const api = this.api(flags);
    const input = flags['password-stdin'] ? await fromStdin() : await fromTerminal();
    const request = flags['rotate-signing-secret'] ? { ...input, rotateSigningSecret: true } : input;
    const { body } = await api.post<NewTokenBody>('/v1/account/password', { body: request });
    const login = readLogin();
    // Keep the new token where the old one was (CALC_TOKEN users store their own).
    if (login && login.apiUrl === api.baseUrl) writeLogin({ ...login, token: body.token, expiresAt: body.expiresAt });
    this.log('Password changed. Every other session of this account is signed out; this one goes on.');
    if (flags['rotate-signing-secret'])
      this.log(
        'The signing secret was replaced and the previous one no longer works: put the new one (calc keys signing-secret) in your backend.',
      );
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
