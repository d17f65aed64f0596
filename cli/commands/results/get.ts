import { Args } from '@oclif/core';
import type { ResultBody } from '../../../src/api-bodies.ts';
import { describeResult, resultPath } from '../../lib/results.ts';
import { OwnerCommand } from '../../owner-command.ts';

export default class ResultsGet extends OwnerCommand {
  static override summary = 'Show one result in full: inputs, outputs, contact, consent, page and UTM.';
  static override description = 'With --json, stdout holds the body of GET /v1/results/ID.';
  static override examples = ['<%= config.bin %> results get res_7Hq2mXw9LpA4vB1cZk3N'];
  static override args = {
    id: Args.string({ description: 'the result id, as `calc results` lists it', required: true }),
  };

  async run() {
    const { args, flags } = await this.parse(ResultsGet);
    const { body } = await this.api(flags).get<ResultBody>(resultPath(args.id));
    this.log(describeResult(body.result));
    return body;
  }
}
