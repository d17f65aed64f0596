import { Args } from '@oclif/core';
import { OwnerCommand } from '../../owner-command.ts';
import type { LimitsBody } from '../../../src/api-bodies.ts';
import { describeLimits, LIMIT_NAMES, type LimitName } from '../../lib/limits-view.ts';

export default class LimitsClear extends OwnerCommand {
  static override summary = 'Remove a cap (or turn register-domain requests back on).';
  static override description =
    'The limit stops applying from the next widget call. With --json, stdout holds the body of PUT /v1/account/limits.';
  static override examples = [
    '<%= config.bin %> limits clear loads-per-day',
    '<%= config.bin %> limits clear register-domain',
  ];
  static override args = {
    name: Args.string({ description: 'the limit to clear', required: true, options: Object.keys(LIMIT_NAMES) }),
  };

  async run() {
    const { args, flags } = await this.parse(LimitsClear);
    const field = LIMIT_NAMES[args.name as LimitName];
    const { body } = await this.api(flags).put<LimitsBody>('/v1/account/limits', { body: { [field]: null } });
    this.log(describeLimits(body.limits));
    return body;
  }
}
