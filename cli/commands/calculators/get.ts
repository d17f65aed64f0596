import { Flags } from '@oclif/core';
import type { AccountCalculatorBody } from '../../../src/api-bodies.ts';
import { CliFailure } from '../../base-command.ts';
import { calcIdSegment, ownCalcIdArg } from '../../lib/calc-id.ts';
import { OwnerCommand } from '../../owner-command.ts';

export default class CalculatorsGet extends OwnerCommand {
  static override summary = 'Print the published definition of one of your calculators as JSON (--draft: the draft).';
  static override description =
    'The output is a definition file: edit it and save it back with `calc calculators update ID --file F`. ' +
    'With --json, stdout holds the body of GET /v1/account/calculators/ID (draft, published, status, version).';
  static override examples = [
    '<%= config.bin %> calculators get roof-quote',
    '<%= config.bin %> calculators get roof-quote --draft > roof-quote.json',
  ];
  static override args = { id: ownCalcIdArg };
  static override flags = { draft: Flags.boolean({ description: 'the draft instead of the published version' }) };

  async run() {
    const { args, flags } = await this.parse(CalculatorsGet);
    const id = calcIdSegment(args.id);
    const { body } = await this.api(flags).get<AccountCalculatorBody>(`/v1/account/calculators/${id}`);
    const definition = flags.draft ? body.draft : body.published;
    // With --json the body is printed whatever it holds; only the plain form needs a published version.
    if (definition === null && !this.jsonEnabled())
      throw new CliFailure(
        `${id} has no published version yet; \`calc calculators get ${id} --draft\` prints its draft.`,
      );
    this.log(JSON.stringify(definition, null, 2));
    return body;
  }
}
