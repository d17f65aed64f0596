import { OwnerCommand } from '../../owner-command.ts';
import type { LimitsBody } from '../../../src/api-bodies.ts';
import { describeLimits } from '../../lib/limits-view.ts';

export default class Limits extends OwnerCommand {
  static override summary = 'Show your caps on widget loads and webhook pulls, and whether pages may ask to be added.';
  static override description =
    'Your public API key is in every page that embeds a calculator; these caps bound what anyone can spend with it. ' +
    'Past a daily cap loads answer 429 cap_reached until 00:00 UTC; pulls over the cap a second are skipped and the widget gets its defaults. ' +
    'Refused loads and skipped pulls show in `calc usage`. With --json, stdout holds the body of GET /v1/account/limits.';
  static override examples = ['<%= config.bin %> limits', '<%= config.bin %> limits --json'];

  async run() {
    const { flags } = await this.parse(Limits);
    const { body } = await this.api(flags).get<LimitsBody>('/v1/account/limits');
    this.log(describeLimits(body.limits));
    return body;
  }
}
