import { Args } from '@oclif/core';
import type { ResultDeletedBody } from '../../../src/api-bodies.ts';
import { confirmAction, yesFlag } from '../../lib/confirm.ts';
import { resultPath } from '../../lib/results.ts';
import { OwnerCommand } from '../../owner-command.ts';

export default class ResultsDelete extends OwnerCommand {
  static override summary = 'Delete a result, with its event if it still waits for delivery.';
  static override description =
    'For a visitor who asks to be forgotten: find their results with `calc results --email ADDRESS`, then delete each. ' +
    'On a terminal it asks first; scripts pass --yes. With --json, stdout holds the body of DELETE /v1/results/ID.';
  static override examples = [
    '<%= config.bin %> results delete res_7Hq2mXw9LpA4vB1cZk3N',
    '<%= config.bin %> results delete res_7Hq2mXw9LpA4vB1cZk3N --yes',
  ];
  static override flags = { yes: yesFlag };
  static override args = {
    id: Args.string({ description: 'the result id, as `calc results` lists it', required: true }),
  };

  async run() {
    const { args, flags } = await this.parse(ResultsDelete);
    const api = this.api(flags);
    api.ensureSignedIn();
    if (!flags.yes)
      await confirmAction(
        `The result ${args.id} is deleted for good, with its event if it still waits for delivery.`,
        `Delete ${args.id}?`,
      );
    const { body } = await api.delete<ResultDeletedBody>(resultPath(args.id));
    this.log(`Deleted ${body.id}.`);
    return body;
  }
}
