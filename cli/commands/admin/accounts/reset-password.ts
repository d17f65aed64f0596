import { Flags } from '@oclif/core';
import { resetPassword, toAccountJson } from '../../../../src/modules/accounts/index.ts';
import { randomBase62 } from '../../../../src/secrets.ts';
import { BaseCommand } from '../../../base-command.ts';
import { dataFlag, databaseUrlFlag, openOperatorStore } from '../../../lib/data-dir.ts';
import { readSecretLine } from '../../../lib/stdin.ts';

export default class AccountsResetPassword extends BaseCommand {
  static override summary = 'Set a new password for an account and sign it out everywhere.';
  static override description =
    "Every session token of the account stops working at once (what to do when an owner's token or password leaks). " +
    'Without --password-stdin a random password is generated and shown once (with --json, as `password`).';
  static override examples = [
    '<%= config.bin %> admin accounts reset-password --email owner@shop.example',
    'printf "%s\\n" "$PASSWORD" | <%= config.bin %> admin accounts reset-password --email owner@shop.example --password-stdin',
  ];

  static override flags = {
    email: Flags.string({ description: "the account's email", required: true }),
    'password-stdin': Flags.boolean({ description: 'read the new password from the first line of standard input' }),
    data: dataFlag,
    'database-url': databaseUrlFlag,
  };

  async run() {
    const { flags } = await this.parse(AccountsResetPassword);
    const generated = flags['password-stdin'] ? null : randomBase62(20);
    const password = generated ?? (await readSecretLine());
    const store = await openOperatorStore(flags);
    try {
      const row = await resetPassword(
        { accounts: store.stores.accounts, now: () => new Date() },
        flags.email,
        password,
      );
      const account = toAccountJson(row);
      this.log(`New password set for ${account.email}; every session of the account is signed out.`);
      if (generated) this.log(`Password (shown once): ${generated}`);
      return generated ? { account, password: generated } : { account };
    } finally {
      await store.close();
    }
  }
}
