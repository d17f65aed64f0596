import { Flags } from '@oclif/core';
import { CliFailure } from '../../base-command.ts';
import type { AccountOverviewBody, DoneBody } from '../../../src/api-bodies.ts';
import { confirmByTyping, yesFlag } from '../../lib/confirm.ts';
import { removeLogin } from '../../lib/credentials.ts';
import { canPrompt, prompt } from '../../lib/prompt.ts';
import { readSecretLine } from '../../lib/stdin.ts';
import { OwnerCommand } from '../../owner-command.ts';

export default class AccountDelete extends OwnerCommand {
  static override summary = 'Delete your account with its domains, configs, secrets and usage.';
  static override description =
    'Its API key stops working at once, so every embedded calculator shows "unavailable"; nothing of the account is kept. ' +
    "On a terminal it asks you to type the account's email, then the password (hidden). " +
    'Scripts pass --yes and the password with --password-stdin. ' +
    'With --json, stdout holds the body of DELETE /v1/account.';
  static override examples = [
    '<%= config.bin %> account delete',
    'printf "%s\\n" "$CALC_PASSWORD" | <%= config.bin %> account delete --yes --password-stdin',
  ];
  static override flags = {
    yes: yesFlag,
    'password-stdin': Flags.boolean({ description: 'read the password from the first line of standard input' }),
  };

  async run() {
    const { flags } = await this.parse(AccountDelete);
    const api = this.api(flags);
    const { body: me } = await api.get<AccountOverviewBody>('/v1/account');
    const email = me.account.email;
    if (!flags.yes) await confirmByTyping(email, `This deletes ${email} with its domains, configs and usage.`);
    let password: string;
    if (flags['password-stdin']) password = await readSecretLine();
    else if (canPrompt()) password = await prompt('Password: ', { hidden: true });
    else throw new CliFailure('Standard input is not a terminal: pass the password with --password-stdin.');
    const { body } = await api.delete<DoneBody>('/v1/account', { body: { password } });
    removeLogin();
    this.log(`Deleted ${email}. Its API key and sessions no longer work.`);
    return body;
  }
}
