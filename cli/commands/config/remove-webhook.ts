import { OwnerCommand } from '../../owner-command.ts';
import type { WidgetConfigBody } from '../../lib/api-types.ts';
import { calcIdArg, calcIdSegment } from '../../lib/calc-id.ts';

export default class ConfigRemoveWebhook extends OwnerCommand {
  static override summary = "Remove a calculator's webhook; widgets load with their defaults.";
  static override description =
    'Works on any plan. Saved header values are deleted. With --json, stdout holds the body of PUT /v1/widget-config/CALCID.';
  static override examples = ['<%= config.bin %> config remove-webhook bmi'];
  static override args = { calcId: calcIdArg };

  async run() {
    const { args, flags } = await this.parse(ConfigRemoveWebhook);
    const calcId = calcIdSegment(args.calcId);
    const { body } = await this.api(flags).put<WidgetConfigBody>(`/v1/widget-config/${calcId}`, {
      body: { config: {} },
    });
    this.log(`${calcId} has no webhook now; widgets load with their defaults.`);
    return body;
  }
}
