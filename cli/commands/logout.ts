import { BaseCommand } from '../base-command.ts';
import { credentialsPath, removeLogin } from '../lib/credentials.ts';

export default class Logout extends BaseCommand {
  static override summary = 'Forget the stored session token.';
  static override description =
    'Deletes credentials.json from the config directory. The server keeps no sessions, so a copy of the token stays valid until it expires (7 days by default). ' +
    'With --json, stdout holds {"loggedOut": true}.';
  static override examples = ['<%= config.bin %> logout', '<%= config.bin %> logout --json'];

  async run() {
    await this.parse(Logout);
    const file = credentialsPath();
    if (removeLogin()) this.log(`Signed out: removed ${file}.`);
    else this.log('Not signed in; nothing to remove.');
    return { loggedOut: true };
  }
}
