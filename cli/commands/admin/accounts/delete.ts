import { Flags } from '@oclif/core';
import { removeAccount, toAccountJson } from '../../../../src/modules/accounts/index.ts';
import { BaseCommand } from '../../../base-command.ts';
import { confirmByTyping, yesFlag } from '../../../lib/confirm.ts';
import { dataFlag, databaseUrlFlag, openOperatorStore } from '../../../lib/data-dir.ts';

export default class AccountsDelete extends BaseCommand {
  static override summary = 'Delete an account with its domains, configs, secrets and usage.';
  static override description =
    'Its API key and session tokens stop working at once; nothing of it is kept. ' +
    'On a terminal it asks you to type the email; scripts pass --yes.';
  static override examples = ['<%= config.bin %> admin accounts delete --email owner@shop.example --yes'];

  static override flags = {
    email: Flags.string({ description: "the account's email", required: true }),
    yes: yesFlag,
    data: dataFlag,
    'database-url': databaseUrlFlag,
  };

  async run() {
    const { flags } = await this.parse(AccountsDelete);
    if (!flags.yes) await confirmByTyping(flags.email, `This deletes ${flags.email} and everything it owns.`);
    const store = await openOperatorStore(flags);
    try {
      const account = toAccountJson(
        await removeAccount({ accounts: store.stores.accounts, now: () => new Date() }, flags.email),
      );
      this.log(`Deleted ${account.email} with its domains, configs and usage.`);
      return { deleted: { id: account.id, email: account.email } };
    } finally {
      await store.close();
    }
  }
}
