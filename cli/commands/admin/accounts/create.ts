import { Flags } from '@oclif/core';
import { DEFAULT_PLAN, PLANS, type Plan } from '../../../../src/plans.ts';
import { createAccount, toAccountJson } from '../../../../src/modules/accounts/index.ts';
import { createSigningSecrets } from '../../../../src/modules/signing-secret/index.ts';
import { randomBase62 } from '../../../../src/secrets.ts';
import { BaseCommand } from '../../../base-command.ts';
import { dataFlag, databaseUrlFlag, openOperatorStore } from '../../../lib/data-dir.ts';
import { readSecretLine } from '../../../lib/stdin.ts';

export default class AccountsCreate extends BaseCommand {
  static override summary = 'Create an account directly in the data directory or the shared database.';
  static override description =
    'Without --password-stdin a random password is generated and shown once (with --json, as `password`).';
  static override examples = [
    '<%= config.bin %> admin accounts create --email owner@shop.example --plan extra',
    'printf "%s\\n" "$PASSWORD" | <%= config.bin %> admin accounts create --email owner@shop.example --password-stdin --json',
  ];

  static override flags = {
    email: Flags.string({ description: 'sign-in email', required: true }),
    plan: Flags.string({ description: 'plan', options: [...PLANS], default: DEFAULT_PLAN }),
    'password-stdin': Flags.boolean({ description: 'read the password from the first line of standard input' }),
    data: dataFlag,
    'database-url': databaseUrlFlag,
  };

  async run() {
    const { flags } = await this.parse(AccountsCreate);
    const generated = flags['password-stdin'] ? null : randomBase62(20);
    const password = generated ?? (await readSecretLine());
    const store = await openOperatorStore(flags);
    const now = () => new Date();
    try {
      const row = await createAccount(
        {
          accounts: store.stores.accounts,
          now,
          signingSecrets: createSigningSecrets({
            signingSecrets: store.stores.signingSecrets,
            cipher: store.cipher(),
            now,
          }),
        },
        {
          email: flags.email,
          password,
          plan: flags.plan as Plan,
        },
      );
      const account = toAccountJson(row);
      this.log(`Created ${account.email} on the ${account.plan} plan.`);
      this.log(`API key: ${account.apiKey}`);
      if (generated) this.log(`Password (shown once): ${generated}`);
      // Under --json the log lines are silent: a generated password must be in the output.
      return generated ? { account, password: generated } : { account };
    } finally {
      await store.close();
    }
  }
}
