import type { CalculatorVersionsBody } from '../../../src/api-bodies.ts';
import { calcIdSegment, ownCalcIdArg } from '../../lib/calc-id.ts';
import { formatTable } from '../../lib/table.ts';
import { OwnerCommand } from '../../owner-command.ts';

export default class CalculatorsVersions extends OwnerCommand {
  static override summary = "List a calculator's published versions, newest first (the newest 20 are kept).";
  static override description =
    'The live one is marked. `calc calculators restore ID VERSION` makes one the draft again, to publish it back: ' +
    'how a bad publish is rolled back. With --json, stdout holds the body of GET /v1/account/calculators/ID/versions.';
  static override examples = ['<%= config.bin %> calculators versions roof-quote'];
  static override args = { id: ownCalcIdArg };

  async run() {
    const { args, flags } = await this.parse(CalculatorsVersions);
    const id = calcIdSegment(args.id);
    const { body } = await this.api(flags).get<CalculatorVersionsBody>(`/v1/account/calculators/${id}/versions`);
    this.log(
      body.versions.length === 0
        ? `${id} has not been published yet.`
        : formatTable(
            ['VERSION', 'PUBLISHED', ''],
            body.versions.map((v) => [
              String(v.version),
              v.publishedAt,
              v.version === body.publishedVersion ? 'live' : '',
            ]),
            [0],
          ),
    );
    return body;
  }
}
