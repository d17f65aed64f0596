import { OwnerCommand } from '../../owner-command.ts';
import type { AccountBody } from '../../lib/api-types.ts';

export default class KeysRotate extends OwnerCommand {
  static override summary = "Replace the account's API key; the old key stops working at once.";
  static override description =
    'Every embedded widget that still carries the old key shows "calculator unavailable" until its snippet is updated (see `calc embed`). ' +
    'With --json, stdout holds the body of POST /v1/account/rotate-api-key.';
  static override examples = ['<%= config.bin %> keys rotate', '<%= config.bin %> keys rotate --json'];

  async run() {
    const { flags } = await this.parse(KeysRotate);
    const { body } = await this.api(flags).post<AccountBody>('/v1/account/rotate-api-key');
    this.log(`New API key: ${body.account.apiKey}`);
    this.log('The old key no longer works; update your embed snippets (calc embed CALCID).');
    return body;
  }
}
