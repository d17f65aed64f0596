import { Flags } from '@oclif/core';
import { CliFailure } from '../base-command.ts';
import { canPrompt, prompt } from './prompt.ts';
import { readSecretLine } from './stdin.ts';

/** Flags shared by `calc login` and `calc signup`; a password is never a flag (shell history). */
export const signInFlags = {
  email: Flags.string({ description: 'sign-in email (asked for when omitted on a terminal)' }),
  'password-stdin': Flags.boolean({ description: 'read the password from the first line of standard input' }),
};

export interface SignInInput {
  email: string;
  password: string;
}

/**
 * Email and password from the flags, standard input or a terminal prompt (password
 * hidden). `confirm` asks for the password twice, for a new account.
 */
export async function readSignInInput(
  flags: { email?: string; 'password-stdin': boolean },
  command: string,
  options: { confirm: boolean },
): Promise<SignInInput> {
  if (flags['password-stdin']) {
    if (!flags.email)
      throw new CliFailure(`--email is required with --password-stdin (standard input holds the password).`);
    return { email: flags.email, password: await readSecretLine() };
  }
  if (!canPrompt()) {
    throw new CliFailure(
      `Standard input is not a terminal, so the password cannot be asked for. Use --password-stdin, e.g. printf '%s\\n' "$CALC_PASSWORD" | calc ${command} --email you@shop.example --password-stdin`,
    );
  }
  const email = flags.email ?? (await prompt('Email: ', { hidden: false })).trim();
  if (email === '') throw new CliFailure('No email given.');
  const password = await prompt('Password: ', { hidden: true });
  if (password === '') throw new CliFailure('No password given.');
  if (options.confirm && (await prompt('Repeat password: ', { hidden: true })) !== password) {
    throw new CliFailure('The two passwords differ; nothing was created.');
  }
  return { email, password };
}
