import { Flags } from '@oclif/core';
import { CliFailure, EXIT } from '../base-command.ts';
import type { DoneBody } from '../../src/api-bodies.ts';
import { credentialsPath, removeLogin } from '../lib/credentials.ts';
import { OwnerCommand } from '../owner-command.ts';

export default class Logout extends OwnerCommand {
  static override summary = 'Sign out everywhere, then forget the stored session token.';
  static override description =
    'Calls POST /v1/auth/logout, which makes every token of the account issued until now stop working (this one, other machines, a leaked copy), then deletes credentials.json. ' +
    'When the server cannot be reached the token is kept and the command fails: the token would still work. ' +
    'With --local only the stored token is forgotten and the server is not called. ' +
    'With --json, stdout holds the body of POST /v1/auth/logout, or {"loggedOut": true} when nothing was sent.';
  static override examples = [
    '<%= config.bin %> logout',
    '<%= config.bin %> logout --local',
    '<%= config.bin %> logout --json',
  ];
  static override flags = {
    local: Flags.boolean({ description: 'only forget the stored token; other tokens of the account keep working' }),
  };

  async run() {
    const { flags } = await this.parse(Logout);
    const file = credentialsPath();
    if (!flags.local) {
      const api = this.api(flags);
      try {
        const { body } = await api.post<DoneBody>('/v1/auth/logout');
        removeLogin();
        this.log(`Signed out everywhere: every session of this account on ${api.baseUrl} has ended; removed ${file}.`);
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
