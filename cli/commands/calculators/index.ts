import { OwnerCommand } from '../../owner-command.ts';
import type { CalculatorListBody } from '../../../src/api-bodies.ts';
import { formatTable } from '../../lib/table.ts';

export default class Calculators extends OwnerCommand {
  static override summary = 'List the calculators you can embed.';
  static override description =
    'The field keys are what a webhook may pre-fill. Needs no sign-in. With --json, stdout holds the body of GET /v1/calculators.';
  static override examples = ['<%= config.bin %> calculators', '<%= config.bin %> calculators --json'];

  async run() {
    const { flags } = await this.parse(Calculators);
    const { body } = await this.api(flags).get<CalculatorListBody>('/v1/calculators', { auth: false });
    const rows = body.calculators.map((c) => [
      c.id,
      c.category ?? '',
      c.title,
      (c.unitSystems ?? []).join('/'),
      (c.fields ?? []).map((f) => f.key).join(', '),
    ]);
    this.log(formatTable(['ID', 'CATEGORY', 'TITLE', 'UNITS', 'FIELD KEYS'], rows));
    return body;
  }
}
