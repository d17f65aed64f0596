import { OwnerCommand } from '../../owner-command.ts';
import type { AccountCalculatorListBody, CalculatorListBody } from '../../../src/api-bodies.ts';
import { textIn } from '../../../src/definition/text.ts';
import { formatTable } from '../../lib/table.ts';

export default class Calculators extends OwnerCommand {
  static override summary = 'List the catalogue and, signed in, your own calculators with their status.';
  static override description =
    'The catalogue needs no sign-in; its field keys are what a webhook may pre-fill, and each entry is a template to copy ' +
    '(`calc calculators create --from bmi`). Signed in, your own calculators follow: draft (never published), published, ' +
    'or changed (published, with a draft changed since). With --json, stdout holds the body of GET /v1/calculators, ' +
    'plus `own`, the list of GET /v1/account/calculators, when signed in.';
  static override examples = ['<%= config.bin %> calculators', '<%= config.bin %> calculators --json'];

  async run() {
    const { flags } = await this.parse(Calculators);
    const api = this.api(flags);
    const { body } = await api.get<CalculatorListBody>('/v1/calculators', { auth: false });
    const rows = body.calculators.map((c) => [
      c.id,
      c.category ?? '',
      c.title,
      (c.unitSystems ?? []).join('/'),
      (c.fields ?? []).map((f) => f.key).join(', '),
    ]);
    this.log(formatTable(['ID', 'CATEGORY', 'TITLE', 'UNITS', 'FIELD KEYS'], rows));
    if (!api.signedIn) return body;

    const own = (await api.get<AccountCalculatorListBody>('/v1/account/calculators')).body.calculators;
    this.log('');
    this.log(
      own.length === 0
        ? 'You have no calculators of your own yet: start from a template with `calc calculators create --from bmi`.'
        : formatTable(
            ['YOURS', 'STATUS', 'VERSION', 'UPDATED', 'TITLE'],
            own.map((c) => [
              c.id,
              c.status,
              c.publishedVersion === null ? '-' : String(c.publishedVersion),
              c.updatedAt,
              textIn(c.title, 'en'),
            ]),
          ),
    );
    return { ...body, own };
  }
}
