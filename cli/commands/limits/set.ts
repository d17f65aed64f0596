import { Flags } from '@oclif/core';
import { invalidFlag } from '../../base-command.ts';
import { OwnerCommand } from '../../owner-command.ts';
import type { LimitsBody } from '../../../src/api-bodies.ts';
import { describeLimits } from '../../lib/limits-view.ts';

const cap = (description: string) => Flags.integer({ description, min: 1, helpValue: 'N' });

export default class LimitsSet extends OwnerCommand {
  static override summary = 'Set caps on widget loads and webhook pulls, or turn register-domain requests on or off.';
  static override description =
    'Only the limits named change; `calc limits clear NAME` removes a cap. Caps are whole numbers from 1. ' +
    'They apply from the next widget call. With --json, stdout holds the body of PUT /v1/account/limits.';
  static override examples = [
    '<%= config.bin %> limits set --loads-per-day 5000',
    '<%= config.bin %> limits set --loads-per-day-per-domain 500 --pulls-per-second 20',
    '<%= config.bin %> limits set --register-domain off',
  ];
  static override flags = {
    'loads-per-day': cap('widget loads a UTC day, in all'),
    'loads-per-day-per-domain': cap('widget loads a UTC day from each page origin'),
    'pulls-per-second': cap('webhook pulls a second (per server); pulls over it are skipped'),
    'register-domain': Flags.string({
      description: 'whether pages may ask to be added (POST /v1/widget/register-domain)',
      options: ['on', 'off'],
    }),
  };

  async run() {
    const { flags } = await this.parse(LimitsSet);
    const body: Partial<Record<keyof LimitsBody['limits'], number | boolean>> = {};
    if (flags['loads-per-day'] !== undefined) body.loadsPerDay = flags['loads-per-day'];
    if (flags['loads-per-day-per-domain'] !== undefined) body.loadsPerDayPerDomain = flags['loads-per-day-per-domain'];
    if (flags['pulls-per-second'] !== undefined) body.pullsPerSecond = flags['pulls-per-second'];
    if (flags['register-domain'] !== undefined) body.registerDomain = flags['register-domain'] === 'on';
    if (Object.keys(body).length === 0)
      throw invalidFlag(
        'Name a limit to set: --loads-per-day, --loads-per-day-per-domain, --pulls-per-second or --register-domain.',
      );
    const { body: answer } = await this.api(flags).put<LimitsBody>('/v1/account/limits', { body });
    this.log(describeLimits(answer.limits));
    return answer;
  }
}
