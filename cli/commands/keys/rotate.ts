import type { AccountBody } from '../../../src/api-bodies.ts';
import { confirmAction, yesFlag } from '../../lib/confirm.ts';
import { OwnerCommand } from '../../owner-command.ts';

export default class KeysRotate extends OwnerCommand {
  static override summary = "Replace the account's API key; the old key stops working at once.";
  static override description =
    'Every embedded widget that still carries the old key shows "calculator unavailable" until its snippet is updated (see `calc embed`). ' +
    'On a terminal it asks first; scripts pass --yes. With --json, stdout holds the body of POST /v1/account/rotate-api-key.';
  static override examples = ['<%= config.bin %> keys rotate', '<%= config.bin %> keys rotate --yes --json'];
  static override flags = { yes: yesFlag };

  async run() {
    const { flags } = await this.parse(KeysRotate);
    const api = this.api(flags);
    api.ensureSignedIn();
    if (!flags.yes)
      await confirmAction(
        'The current API key stops working at once: every embedded calculator that carries it shows "calculator unavailable" until its snippet is updated.',
        'Rotate the API key?',
      );
    const { body } = await api.post<AccountBody>('/v1/account/rotate-api-key');
    this.log(`New API key: ${body.account.apiKey}`);
    this.log('The old key no longer works; update your embed snippets (calc embed CALCID).');
    return body;
  }
}
