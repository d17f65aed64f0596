import { PLAN_NAMES } from '../../src/plans.ts';
import { OwnerCommand } from '../owner-command.ts';
import type { AccountOverviewBody } from '../../src/api-bodies.ts';
import { formatDetails } from '../lib/details.ts';
import { quotaSummary, quotaWarnings } from '../lib/quota.ts';

export default class Whoami extends OwnerCommand {
  static override summary = "Show the signed-in account, its plan and this month's usage.";
  static override description = 'With --json, stdout holds the body of GET /v1/account.';
  static override examples = ['<%= config.bin %> whoami', '<%= config.bin %> whoami --json'];

  async run() {
    const { flags } = await this.parse(Whoami);
    const api = this.api(flags);
    const { body } = await api.get<AccountOverviewBody>('/v1/account');
    const { account, usage } = body;
    this.log(
      formatDetails([
        ['Email', account.email],
        ['Plan', PLAN_NAMES[account.plan]],
        ['Usage', quotaSummary(usage)],
        ['API key', account.apiKey],
        ['Server', api.baseUrl],
        ['Public URL', body.publicUrl],
      ]),
    );
    const warnings = quotaWarnings(usage, account);
    if (warnings.length > 0) this.log(['', ...warnings].join('\n'));
    return body;
  }
}
