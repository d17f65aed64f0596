import { Flags } from '@oclif/core';
import type { DeliveryListBody } from '../../../../src/api-bodies.ts';
import { deliveriesTable, ENDPOINT_PATH } from '../../../lib/results-endpoint.ts';
import { OwnerCommand } from '../../../owner-command.ts';

export default class ResultsEndpointDeliveries extends OwnerCommand {
  static override summary = 'The delivery log: one line per attempt, newest first.';
  static override description =
    'Each attempt with its event, result, HTTP status and duration; --json also holds the first 1 KiB of each answer. ' +
    'Pages of --limit attempts: pass the printed cursor to --cursor for older ones. ' +
    'With --json, stdout holds the body of GET /v1/account/results-endpoint/deliveries.';
  static override examples = [
    '<%= config.bin %> results endpoint deliveries',
    '<%= config.bin %> results endpoint deliveries --event msg_2k9v0c1x8q7w6e5r4t3y2u1i',
    '<%= config.bin %> results endpoint deliveries --limit 200 --json',
  ];
  static override flags = {
    limit: Flags.integer({ description: 'attempts per page, 1–200', min: 1, max: 200, default: 50 }),
    cursor: Flags.string({ description: 'where the previous page ended (its nextCursor)' }),
    event: Flags.string({ description: "only this event's attempts" }),
  };

  async run() {
    const { flags } = await this.parse(ResultsEndpointDeliveries);
    const query = new URLSearchParams({ limit: String(flags.limit) });
    if (flags.cursor) query.set('cursor', flags.cursor);
    if (flags.event) query.set('eventId', flags.event);
    const { body } = await this.api(flags).get<DeliveryListBody>(`${ENDPOINT_PATH}/deliveries?${query}`);
    this.log(body.deliveries.length === 0 ? 'No deliveries yet.' : deliveriesTable(body.deliveries));
    if (body.nextCursor) this.log(`More: calc results endpoint deliveries --cursor ${body.nextCursor}`);
    return body;
  }
}
