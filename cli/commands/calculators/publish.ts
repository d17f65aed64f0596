import type { AccountCalculatorBody } from '../../../src/api-bodies.ts';
import { calcIdSegment, ownCalcIdArg } from '../../lib/calc-id.ts';
import { OwnerCommand } from '../../owner-command.ts';

export default class CalculatorsPublish extends OwnerCommand {
  static override summary = "Publish a calculator's draft: what embedding pages load from now on.";
  static override description =
    'Each publish keeps a version (the newest 20 are kept: `calc calculators versions ID`); publishing a draft that is ' +
    'already the published version changes nothing. With --json, stdout holds the body of POST /v1/account/calculators/ID/publish.';
  static override examples = ['<%= config.bin %> calculators publish roof-quote'];
  static override args = { id: ownCalcIdArg };

  async run() {
    const { args, flags } = await this.parse(CalculatorsPublish);
    const id = calcIdSegment(args.id);
    const { body } = await this.api(flags).post<AccountCalculatorBody>(`/v1/account/calculators/${id}/publish`);
    this.log(`Published ${id}: version ${body.publishedVersion} is live.`);
    return body;
  }
}
