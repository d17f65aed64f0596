import { Args } from '@oclif/core';
import type { QueuedEventBody } from '../../../../src/api-bodies.ts';
import { ENDPOINT_PATH } from '../../../lib/results-endpoint.ts';
import { OwnerCommand } from '../../../owner-command.ts';

export default class ResultsEndpointResend extends OwnerCommand {
  static override summary = 'Send an event again, with the same webhook-id and body.';
  static override description =
    'Your endpoint can tell it from a new event by its webhook-id. The attempt starts at once; see it with calc results endpoint deliveries --event EVENT_ID. ' +
    'With --json, stdout holds the body of POST /v1/account/results-endpoint/deliveries/EVENT_ID/resend.';
  static override examples = ['<%= config.bin %> results endpoint resend msg_2k9v0c1x8q7w6e5r4t3y2u1i'];
  static override args = { eventId: Args.string({ description: 'the event id (msg_…)', required: true }) };

  async run() {
    const { args, flags } = await this.parse(ResultsEndpointResend);
    const { body } = await this.api(flags).post<QueuedEventBody>(
      `${ENDPOINT_PATH}/deliveries/${encodeURIComponent(args.eventId)}/resend`,
    );
    this.log(`Event ${body.eventId} is being sent again.`);
    return body;
  }
}
