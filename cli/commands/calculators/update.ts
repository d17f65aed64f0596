import { Flags } from '@oclif/core';
import type { AccountCalculatorBody } from '../../../src/api-bodies.ts';
import { calcIdSegment, ownCalcIdArg } from '../../lib/calc-id.ts';
import { definitionFile, readDefinitionFile } from '../../lib/definition-file.ts';
import { OwnerCommand } from '../../owner-command.ts';

export default class CalculatorsUpdate extends OwnerCommand {
  static override summary = "Save a definition file as a calculator's draft.";
  static override description =
    "The file's id must be ID (to rename, create a copy under the new id and delete this one). Visitors keep seeing " +
    'the published version until `calc calculators publish ID`. A refusal lists every problem by path and position. ' +
    'With --json, stdout holds the body of PUT /v1/account/calculators/ID.';
  static override examples = ['<%= config.bin %> calculators update roof-quote --file roof-quote.json'];
  static override args = { id: ownCalcIdArg };
  static override flags = { file: Flags.string({ ...definitionFile, required: true }) };

  async run() {
    const { args, flags } = await this.parse(CalculatorsUpdate);
    const api = this.api(flags);
    api.ensureSignedIn();
    const id = calcIdSegment(args.id);
    const definition = await readDefinitionFile(flags.file);
    const { body } = await api.put<AccountCalculatorBody>(`/v1/account/calculators/${id}`, { body: { definition } });
    this.log(
      body.status === 'published'
        ? `Saved the draft of ${id}: it is the published version ${body.publishedVersion}.`
        : `Saved the draft of ${id}; publish it with \`calc calculators publish ${id}\`.`,
    );
    return body;
  }
}
