import type { Command } from '@oclif/core';
import { commands as helpCommands } from '@oclif/plugin-help';
import AccountsCreate from './commands/admin/accounts/create.ts';
import AccountsList from './commands/admin/accounts/list.ts';
import AccountsSetPlan from './commands/admin/accounts/set-plan.ts';
import Backup from './commands/admin/backup.ts';
import Serve from './commands/serve.ts';

/**
 * Every command, by id. Explicit so the bundler sees each class: a compiled executable
 * has no commands folder for oclif to scan.
 */
export const commands: Record<string, Command.Class> = {
  help: helpCommands.help as unknown as Command.Class,
  serve: Serve,
  'admin:accounts:create': AccountsCreate,
  'admin:accounts:set-plan': AccountsSetPlan,
  'admin:accounts:list': AccountsList,
  'admin:backup': Backup,
};
