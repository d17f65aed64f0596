import { Flags } from '@oclif/core';
import { CliFailure, EXIT } from '../base-command.ts';
import type { DoneBody } from '../../src/api-bodies.ts';
import { credentialsPath, removeLogin } from '../lib/credentials.ts';
import { passwordStdinFlag, withPassword } from '../lib/signing-secret.ts';
import { OwnerCommand } from '../owner-command.ts';

export default class Logout extends OwnerCommand {
  static override summary = 'Sign out everywhere, then forget the stored session token.';
  static override description =
    'Calls POST /v1/auth/logout, which makes every token of the account issued until now stop working (this one, other machines, a leaked copy), then deletes credentials.json. ' +
    'When the server cannot be reached the token is kept and the command fails: the token would still work. ' +
    'With --local only the stored token is forgotten and the server is not called. ' +
    'With --rotate-signing-secret the signing secret is replaced too and the current one stops at once (a leaked session may have read it); that needs your password unless you signed in within the last few minutes (asked for on a terminal, or --password-stdin). ' +
    'With --json, stdout holds the body of POST /v1/auth/logout, or {"loggedOut": true} when nothing was sent.';
  static override examples = [
    '<%= config.bin %> logout',
    '<%= config.bin %> logout --local',
    '<%= config.bin %> logout --rotate-signing-secret',
    '<%= config.bin %> logout --json',
  ];
  static override flags = {
    local: Flags.boolean({ description: 'only forget the stored token; other tokens of the account keep working' }),
    'rotate-signing-secret': Flags.boolean({
      description: 'also replace the signing secret; the current one stops at once (your backend needs the new one)',
      exclusive: ['local'],
    }),
    'password-stdin': passwordStdinFlag,
  };

  async run() {
    const { flags } = await this.parse(Logout);
    const file = credentialsPath();
    if (!flags.local) {
      const api = this.api(flags);
      try {
        const rotate = flags['rotate-signing-secret'];
        const body = rotate
          ? await withPassword(flags['password-stdin'], async (password) => {
              const request = { rotateSigningSecret: true, ...(password === undefined ? {} : { password }) };
              return (await api.post<DoneBody>('/v1/auth/logout', { body: request })).body;
            })
          : (await api.post<DoneBody>('/v1/auth/logout')).body;
        removeLogin();
        this.log(`Signed out everywhere: every session of this account on ${api.baseUrl} has ended; removed ${file}.`);
        if (rotate)
          this.log(
            'The signing secret was replaced and the previous one no longer works: sign in again and put the new one (calc keys signing-secret) in your backend.',
          );
        return body;
      } catch (error) {
        // No token, or one the server already refuses: nothing left to end on the server.
        if (!(error instanceof CliFailure && error.exitCode === EXIT.auth)) throw error;
      }
    }
    if (removeLogin()) this.log(`Signed out: removed ${file}.`);
    else this.log('Not signed in; nothing to remove.');
    return { loggedOut: true };
  }
}
