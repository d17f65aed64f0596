import type { Command } from '@oclif/core';
import { commands as helpCommands } from '@oclif/plugin-help';
import { autocompleteCommands } from './autocomplete.ts';
import AccountsCreate from './commands/admin/accounts/create.ts';
import AccountsDelete from './commands/admin/accounts/delete.ts';
import AccountsList from './commands/admin/accounts/list.ts';
import AccountsResetPassword from './commands/admin/accounts/reset-password.ts';
import AccountsSetPlan from './commands/admin/accounts/set-plan.ts';
import Backup from './commands/admin/backup.ts';
import Migrate from './commands/admin/migrate.ts';
import AccountDelete from './commands/account/delete.ts';
import Calculators from './commands/calculators/index.ts';
import CalculatorsCreate from './commands/calculators/create.ts';
import CalculatorsDelete from './commands/calculators/delete.ts';
import CalculatorsEval from './commands/calculators/eval.ts';
import CalculatorsGet from './commands/calculators/get.ts';
import CalculatorsPublish from './commands/calculators/publish.ts';
import CalculatorsRestore from './commands/calculators/restore.ts';
import CalculatorsUpdate from './commands/calculators/update.ts';
import CalculatorsValidate from './commands/calculators/validate.ts';
import CalculatorsVersions from './commands/calculators/versions.ts';
import ConfigGet from './commands/config/get.ts';
import ConfigRemoveWebhook from './commands/config/remove-webhook.ts';
import ConfigSetWebhook from './commands/config/set-webhook.ts';
import ConfigTestWebhook from './commands/config/test-webhook.ts';
import ContextMint from './commands/context/mint.ts';
import DomainsAdd from './commands/domains/add.ts';
import DomainsApprove from './commands/domains/approve.ts';
import Domains from './commands/domains/index.ts';
import DomainsRemove from './commands/domains/remove.ts';
import Embed from './commands/embed.ts';
import KeysRotate from './commands/keys/rotate.ts';
import KeysSigningSecret from './commands/keys/signing-secret.ts';
import Limits from './commands/limits/index.ts';
import LimitsClear from './commands/limits/clear.ts';
import LimitsSet from './commands/limits/set.ts';
import Login from './commands/login.ts';
import Logout from './commands/logout.ts';
import Password from './commands/password.ts';
import ResultsEndpointDeliveries from './commands/results/endpoint/deliveries.ts';
import ResultsEndpointResend from './commands/results/endpoint/resend.ts';
import ResultsEndpointRotateSecret from './commands/results/endpoint/rotate-secret.ts';
import ResultsEndpointSet from './commands/results/endpoint/set.ts';
import ResultsEndpointShow from './commands/results/endpoint/show.ts';
import ResultsEndpointTest from './commands/results/endpoint/test.ts';
import ResultsIndex from './commands/results/index.ts';
import ResultsGet from './commands/results/get.ts';
import ResultsDelete from './commands/results/delete.ts';
import ResultsExport from './commands/results/export.ts';
import ConfigSetResults from './commands/config/set-results.ts';
import Serve from './commands/serve.ts';
import Signup from './commands/signup.ts';
import Usage from './commands/usage.ts';
import Whoami from './commands/whoami.ts';

/**
 * Every command, by id. Explicit so the bundler sees each class: a compiled executable
 * has no commands folder for oclif to scan.
 */
export const commands: Record<string, Command.Class> = {
  help: helpCommands.help as unknown as Command.Class,
  ...autocompleteCommands,
  serve: Serve,
  'admin:accounts:create': AccountsCreate,
  'admin:accounts:set-plan': AccountsSetPlan,
  'admin:accounts:list': AccountsList,
  'admin:accounts:reset-password': AccountsResetPassword,
  'admin:accounts:delete': AccountsDelete,
  'admin:backup': Backup,
  'admin:migrate': Migrate,
  login: Login,
  logout: Logout,
  password: Password,
  'account:delete': AccountDelete,
  signup: Signup,
  whoami: Whoami,
  domains: Domains,
  'domains:add': DomainsAdd,
  'domains:remove': DomainsRemove,
  'domains:approve': DomainsApprove,
  'config:get': ConfigGet,
  'config:set-webhook': ConfigSetWebhook,
  'config:remove-webhook': ConfigRemoveWebhook,
  'config:test-webhook': ConfigTestWebhook,
  'context:mint': ContextMint,
  calculators: Calculators,
  'calculators:create': CalculatorsCreate,
  'calculators:update': CalculatorsUpdate,
  'calculators:publish': CalculatorsPublish,
  'calculators:get': CalculatorsGet,
  'calculators:delete': CalculatorsDelete,
  'calculators:validate': CalculatorsValidate,
  'calculators:eval': CalculatorsEval,
  'calculators:versions': CalculatorsVersions,
  'calculators:restore': CalculatorsRestore,
  embed: Embed,
  'keys:rotate': KeysRotate,
  'keys:signing-secret': KeysSigningSecret,
  usage: Usage,
  limits: Limits,
  'limits:set': LimitsSet,
  'limits:clear': LimitsClear,
  'results:endpoint:set': ResultsEndpointSet,
  'results:endpoint:show': ResultsEndpointShow,
  'results:endpoint:test': ResultsEndpointTest,
  'results:endpoint:rotate-secret': ResultsEndpointRotateSecret,
  'results:endpoint:deliveries': ResultsEndpointDeliveries,
  'results:endpoint:resend': ResultsEndpointResend,
  results: ResultsIndex,
  'results:get': ResultsGet,
  'results:delete': ResultsDelete,
  'results:export': ResultsExport,
  'config:set-results': ConfigSetResults,
};
