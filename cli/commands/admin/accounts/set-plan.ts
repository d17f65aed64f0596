import { Flags } from '@oclif/core';
import { PLANS, type Plan } from '../../../../src/plans.ts';
import { createAccountsStore } from '../../../../src/db/accounts-store.ts';
import { normaliseEmail, toAccountJson } from '../../../../src/modules/accounts/service.ts';
import { BaseCommand, CliFailure } from '../../../base-command.ts';
import { dataFlag, openDataDir } from '../../../lib/data-dir.ts';

export default class AccountsSetPlan extends BaseCommand {
  static override summary = "Change an account's plan; effective on its next request.";
  static override description =
    'The server reads the plan from the store on every request, so a downgrade stops webhooks at once.';
  static override examples = ['<%= config.bin %> admin accounts set-plan --email owner@shop.example --plan extra'];

  static override flags = {
    email: Flags.string({ description: "the account's email", required: true }),
    plan: Flags.string({ description: 'new plan', options: [...PLANS], required: true }),
    data: dataFlag,
  };

  async run() {
    const { flags } = await this.parse(AccountsSetPlan);
    const store = openDataDir(flags.data);
    try {
      const accounts = createAccountsStore(store.db);
      const row = await accounts.findByEmail(normaliseEmail(flags.email));
      if (!row) throw new CliFailure(`No account with email ${flags.email}.`);
      await accounts.setPlan(row.id, flags.plan as Plan);
      const account = toAccountJson({ ...row, plan: flags.plan as Plan });
      this.log(`${account.email}: ${row.plan} → ${account.plan}`);
      return { account };
    } finally {
      store.close();
    }
  }
}
