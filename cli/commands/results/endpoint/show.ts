import type { ResultsEndpointBody } from '../../../../src/api-bodies.ts';
import { OwnerCommand } from '../../../owner-command.ts';
import { describeEndpoint, ENDPOINT_PATH } from '../../../lib/results-endpoint.ts';

export default class ResultsEndpointShow extends OwnerCommand {
  static override summary =
    'Show the results endpoint: URL, events, enabled or why not, the secret’s last four characters.';
  static override description = 'With --json, stdout holds the body of GET /v1/account/results-endpoint.';
  static override examples = [
    '<%= config.bin %> results endpoint show',
    '<%= config.bin %> results endpoint show --json',
  ];

  async run() {
    const { flags } = await this.parse(ResultsEndpointShow);
    const { body } = await this.api(flags).get<ResultsEndpointBody>(ENDPOINT_PATH);
    this.log(
      body.endpoint
        ? describeEndpoint(body.endpoint)
        : 'No results endpoint. Set one: calc results endpoint set --url URL',
    );
    return body;
  }
}
