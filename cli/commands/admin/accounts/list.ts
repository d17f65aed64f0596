import { readQuotas } from '../../../../src/config.ts';
import { toAccountJson } from '../../../../src/modules/accounts/index.ts';
import { periodOf } from '../../../../src/usage/counter.ts';
import { BaseCommand } from '../../../base-command.ts';
import { dataFlag, databaseUrlFlag, openOperatorStore } from '../../../lib/data-dir.ts';
import { formatTable } from '../../../lib/table.ts';

export default class AccountsList extends BaseCommand {
  static override summary = "List accounts with their plan and this month's usage.";
  static override description =
    "Usage is what the server has written to disk; a running server flushes its counters every second. LIMIT is computed from this shell's --quota-* settings (CALC_QUOTA_*), so run it with the same environment as the server.";
  static override examples = ['<%= config.bin %> admin accounts list', '<%= config.bin %> admin accounts list --json'];
  static override flags = { data: dataFlag, 'database-url': databaseUrlFlag };

  async run() {
    const { flags } = await this.parse(AccountsList);
    const quotas = readQuotas();
    const period = periodOf(new Date());
    const store = await openOperatorStore(flags);
    try {
      const accounts = (await store.stores.accounts.listWithUsage(period)).map((row) => ({
        ...toAccountJson(row),
        usage: { period, used: row.loads, limit: quotas[row.plan] },
      }));
      if (accounts.length === 0) this.log('No accounts yet. Create one with `calc admin accounts create --email …`.');
      else
        this.log(
          formatTable(
            ['EMAIL', 'PLAN', `USED ${period}`, 'LIMIT', 'CREATED'],
            accounts.map((a) => [a.email, a.plan, String(a.usage.used), String(a.usage.limit), a.createdAt]),
          ),
        );
      return { accounts };
    } finally {
      await store.close();
    }
  }
}
