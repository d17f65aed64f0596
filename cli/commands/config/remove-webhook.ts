import type { WidgetConfigBody } from '../../../src/api-bodies.ts';
import { calcIdArg, calcIdSegment } from '../../lib/calc-id.ts';
import { confirmAction, yesFlag } from '../../lib/confirm.ts';
import { OwnerCommand } from '../../owner-command.ts';

export default class ConfigRemoveWebhook extends OwnerCommand {
  static override summary = "Remove a calculator's webhook; widgets load with their defaults.";
  static override description =
    'Works on any plan. Saved header values are deleted. On a terminal it asks first; scripts pass --yes. With --json, stdout holds the body of PUT /v1/widget-config/CALCID.';
  static override examples = [
    '<%= config.bin %> config remove-webhook bmi',
    '<%= config.bin %> config remove-webhook bmi --yes',
  ];
  static override flags = { yes: yesFlag };
  static override args = { calcId: calcIdArg };

  async run() {
    const { args, flags } = await this.parse(ConfigRemoveWebhook);
    const calcId = calcIdSegment(args.calcId);
    const api = this.api(flags);
    api.ensureSignedIn();
    if (!flags.yes)
      await confirmAction(
        `${calcId} widgets stop being pre-filled, and the saved header values are deleted (you would type them again).`,
        `Remove the webhook of ${calcId}?`,
      );
    const { body } = await api.put<WidgetConfigBody>(`/v1/widget-config/${calcId}`, {
      body: { config: {} },
    });
    this.log(`${calcId} has no webhook now; widgets load with their defaults.`);
    return body;
  }
}
