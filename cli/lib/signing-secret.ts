import { Flags } from '@oclif/core';
import { CliFailure, EXIT } from '../base-command.ts';
import type { SigningSecretBody } from '../../src/api-bodies.ts';
import type { ApiClient } from './api-client.ts';
import { canPrompt, prompt } from './prompt.ts';
import { readSecretLine } from './stdin.ts';

const PATH = '/v1/account/signing-secret';

/**
 * The signing secret is a credential of its own: the server shows it whole, and replaces
 * it, only for a session signed in within the last few minutes or with the password.
 */
export const passwordStdinFlag = Flags.boolean({
  description:
    'read the password from the first line of standard input (the signing secret needs it when this session is older than a few minutes; on a terminal it is asked for)',
});

/** A whole signing secret, with when it was made. */
export type WholeSigningSecret = SigningSecretBody & { signingSecret: string };

/**
 * The signing secret, whole: at once for a recent session; for an older one revealed with
 * the password, from --password-stdin or asked for (hidden) on a terminal.
 */
export async function wholeSigningSecret(api: ApiClient, passwordStdin: boolean): Promise<WholeSigningSecret> {
  if (!passwordStdin) {
    const { body } = await api.get<SigningSecretBody>(PATH);
    if (body.signingSecret !== null) return body as WholeSigningSecret;
  }
  const password = passwordStdin
    ? await pipedPassword()
    : await askedPassword(
        'Showing the signing secret needs your password: this session was signed in more than a few minutes ago.',
      );
  const { body } = await api.post<SigningSecretBody>(`${PATH}/reveal`, { body: { password } });
  return body as WholeSigningSecret;
}

/**
 * Sends a request that replaces the signing secret: with the password from
 * --password-stdin, else without one, and when the server answers `password_required`
 * (an older session) again with the password asked for on a terminal.
 */
export async function withPassword<T>(passwordStdin: boolean, send: (password?: string) => Promise<T>): Promise<T> {
  if (passwordStdin) return send(await pipedPassword());
  try {
    return await send(undefined);
  } catch (error) {
    if (!(error instanceof CliFailure && error.code === 'password_required')) throw error;
    return send(await askedPassword(error.message));
  }
}

async function pipedPassword(): Promise<string> {
  const password = await readSecretLine();
  if (password === '') throw new CliFailure('--password-stdin: standard input holds no password.');
  return password;
}

async function askedPassword(reason: string): Promise<string> {
  if (!canPrompt())
    throw new CliFailure(
      `${reason} Standard input is not a terminal, so it cannot be asked for: pipe it in with --password-stdin, e.g. printf '%s\\n' "$CALC_PASSWORD" | calc … --password-stdin`,
      EXIT.failure,
      'password_required',
    );
  const password = await prompt('Password: ', { hidden: true });
  if (password === '') throw new CliFailure('No password given.');
  return password;
}
