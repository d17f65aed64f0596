import { OwnerCommand } from '../../owner-command.ts';
import type { WidgetConfigBody } from '../../../src/api-bodies.ts';
import { calcIdArg, calcIdSegment } from '../../lib/calc-id.ts';
import { describeConfig } from '../../lib/config-view.ts';

export default class ConfigGet extends OwnerCommand {
  static override summary = "Show a calculator's widget config and the last webhook outcome.";
  static override description =
    'Header values are never shown: the server returns only their names. With --json, stdout holds the body of GET /v1/widget-config/CALCID.';
  static override examples = ['<%= config.bin %> config get bmi', '<%= config.bin %> config get bmi --json'];
  static override args = { calcId: calcIdArg };

  async run() {
    const { args, flags } = await this.parse(ConfigGet);
    const { body } = await this.api(flags).get<WidgetConfigBody>(`/v1/widget-config/${calcIdSegment(args.calcId)}`);
    this.log(describeConfig(body));
    return body;
  }
}
