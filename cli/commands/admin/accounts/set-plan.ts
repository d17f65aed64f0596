import { Flags } from '@oclif/core';
import { PLANS, type Plan } from '../../../../src/plans.ts';
import { normaliseEmail, toAccountJson } from '../../../../src/modules/accounts/index.ts';
import { BaseCommand, CliFailure } from '../../../base-command.ts';
import { dataFlag, databaseUrlFlag, openOperatorStore } from '../../../lib/data-dir.ts';

export default class AccountsSetPlan extends BaseCommand {
  static override summary = "Change an account's plan; effective on its next request.";
  static override description =
    'The server reads the plan from the store on every request, so a downgrade stops webhooks at once.';
  static override examples = ['<%= config.bin %> admin accounts set-plan --email owner@shop.example --plan extra'];

  static override flags = {
    email: Flags.string({ description: "the account's email", required: true }),
    plan: Flags.string({ description: 'new plan', options: [...PLANS], required: true }),
    data: dataFlag,
    'database-url': databaseUrlFlag,
  };

  async run() {
    const { flags } = await this.parse(AccountsSetPlan);
    const store = await openOperatorStore(flags);
    try {
      const { accounts } = store.stores;
      const row = await accounts.findByEmail(normaliseEmail(flags.email));
      if (!row) throw new CliFailure(`No account with email ${flags.email}.`);
      await accounts.setPlan(row.id, flags.plan as Plan);
      const account = toAccountJson({ ...row, plan: flags.plan as Plan });
      this.log(`${account.email}: ${row.plan} → ${account.plan}`);
      return { account };
    } finally {
      await store.close();
    }
  }
}
