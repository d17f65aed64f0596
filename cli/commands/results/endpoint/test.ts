import type { TestEventBody } from '../../../../src/api-bodies.ts';
import { EXIT } from '../../../base-command.ts';
import { formatDetails } from '../../../lib/details.ts';
import { attemptResult, ENDPOINT_PATH } from '../../../lib/results-endpoint.ts';
import { OwnerCommand } from '../../../owner-command.ts';

export default class ResultsEndpointTest extends OwnerCommand {
  static override summary = 'Send a test event to the results endpoint now and show what it answered.';
  static override description =
    'The event is signed like every delivery; its first attempt is made at once. A failed test is retried on the usual schedule. ' +
    'Exits 1 when the endpoint did not answer 2xx. With --json, stdout holds the body of POST /v1/account/results-endpoint/test.';
  static override examples = [
    '<%= config.bin %> results endpoint test',
    '<%= config.bin %> results endpoint test --json',
  ];

  async run() {
    const { flags } = await this.parse(ResultsEndpointTest);
    const { body } = await this.api(flags).post<TestEventBody>(`${ENDPOINT_PATH}/test`);
    const { delivery } = body;
    if (delivery === null) {
      this.log(
        `Test event ${body.eventId} is queued: the endpoint has all its deliveries in flight. See: calc results endpoint deliveries`,
      );
      return body;
    }
    this.log(
      formatDetails([
        ['Event', body.eventId],
        ['Result', attemptResult(delivery)],
        ['Duration', `${delivery.durationMs} ms`],
        ['Answer', delivery.response === '' ? '(empty)' : delivery.response],
      ]),
    );
    if (delivery.outcome !== 'ok') process.exitCode = EXIT.failure;
    return body;
  }
}
