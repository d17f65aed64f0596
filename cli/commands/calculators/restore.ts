import { Args } from '@oclif/core';
import type { AccountCalculatorBody } from '../../../src/api-bodies.ts';
import { invalidFlag } from '../../base-command.ts';
import { calcIdSegment, ownCalcIdArg } from '../../lib/calc-id.ts';
import { confirmAction, yesFlag } from '../../lib/confirm.ts';
import { OwnerCommand } from '../../owner-command.ts';

export default class CalculatorsRestore extends OwnerCommand {
  static override summary = 'Make a published version the draft again (publish it to serve it).';
  static override description =
    'Visitors keep the published version until `calc calculators publish ID`. When the draft has changes that were ' +
    'never published, they are lost: on a terminal it asks first; scripts pass --yes. With --json, stdout holds the ' +
    'body of POST /v1/account/calculators/ID/versions/VERSION/restore.';
  static override examples = [
    '<%= config.bin %> calculators restore roof-quote 3',
    '<%= config.bin %> calculators restore roof-quote 3 --yes && <%= config.bin %> calculators publish roof-quote',
  ];
  static override args = {
    id: ownCalcIdArg,
    version: Args.string({
      description: 'a version number, as listed by `calc calculators versions ID`',
      required: true,
    }),
  };
  static override flags = { yes: yesFlag };

  async run() {
    const { args, flags } = await this.parse(CalculatorsRestore);
    const api = this.api(flags);
    api.ensureSignedIn();
    const id = calcIdSegment(args.id);
    if (!/^[1-9][0-9]{0,8}$/.test(args.version))
      throw invalidFlag(`VERSION must be a version number such as 3, not "${args.version}".`);
    if (!flags.yes) {
      const { body } = await api.get<AccountCalculatorBody>(`/v1/account/calculators/${id}`);
      // Only unpublished changes are lost: every published draft is a kept version.
      if (body.status !== 'published')
        await confirmAction(
          `The draft of ${id} has changes that were never published; restoring version ${args.version} replaces them.`,
          `Restore version ${args.version} of ${id} as the draft?`,
        );
    }
    const { body } = await api.post<AccountCalculatorBody>(
      `/v1/account/calculators/${id}/versions/${args.version}/restore`,
    );
    this.log(`Version ${args.version} of ${id} is the draft now; publish it with \`calc calculators publish ${id}\`.`);
    return body;
  }
}
