import type { CalculatorDeletedBody } from '../../../src/api-bodies.ts';
import { calcIdSegment, ownCalcIdArg } from '../../lib/calc-id.ts';
import { confirmAction, yesFlag } from '../../lib/confirm.ts';
import { OwnerCommand } from '../../owner-command.ts';

export default class CalculatorsDelete extends OwnerCommand {
  static override summary = 'Delete one of your calculators with its draft and every version.';
  static override description =
    'Pages that embed it show "calculator unavailable" at once; its usage history stays, and its place in your plan is free again. ' +
    'On a terminal it asks first; scripts pass --yes. With --json, stdout holds the body of DELETE /v1/account/calculators/ID.';
  static override examples = [
    '<%= config.bin %> calculators delete roof-quote',
    '<%= config.bin %> calculators delete roof-quote --yes',
  ];
  static override args = { id: ownCalcIdArg };
  static override flags = { yes: yesFlag };

  async run() {
    const { args, flags } = await this.parse(CalculatorsDelete);
    const api = this.api(flags);
    api.ensureSignedIn();
    const id = calcIdSegment(args.id);
    if (!flags.yes)
      await confirmAction(
        `Pages that embed ${id} show "calculator unavailable" at once, and its draft and versions are gone.`,
        `Delete ${id}?`,
      );
    const { body } = await api.delete<CalculatorDeletedBody>(`/v1/account/calculators/${id}`);
    this.log(`Deleted ${body.id}.`);
    return body;
  }
}
