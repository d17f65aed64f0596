import { Flags } from '@oclif/core';
import type { SavedEndpointBody } from '../../../../src/api-bodies.ts';
import { EVENT_TYPES } from '../../../../src/delivery/events.ts';
import { OwnerCommand } from '../../../owner-command.ts';
import { describeEndpoint, ENDPOINT_PATH } from '../../../lib/results-endpoint.ts';

export default class ResultsEndpointSet extends OwnerCommand {
  static override summary = 'Set the results endpoint that receives signed events (Base and Extra plans).';
  static override description =
    'Events (a submitted result, usage warnings, tests) are POSTed to the URL as JSON, signed by the Standard Webhooks convention (docs/results.md). ' +
    'The first time, the answer carries the signing secret (whsec_…): it is shown this once, so store it on your servers. ' +
    'Setting it again keeps the secret and turns a disabled endpoint on (queued events resume); --disable turns it off without losing events. ' +
    'With --json, stdout holds the body of PUT /v1/account/results-endpoint.';
  static override examples = [
    '<%= config.bin %> results endpoint set --url https://api.shop.example/calc-events',
    '<%= config.bin %> results endpoint set --url https://api.shop.example/calc-events --events result.submitted',
    '<%= config.bin %> results endpoint set --url https://api.shop.example/calc-events --disable',
  ];
  static override flags = {
    url: Flags.string({ description: 'absolute http(s) URL on a public address', required: true }),
    events: Flags.string({
      description: 'the event types to receive, comma-separated (default: all; test events are always sent)',
      options: [...EVENT_TYPES],
      multiple: true,
      delimiter: ',',
    }),
    disable: Flags.boolean({ description: 'keep the endpoint but stop deliveries (events stay queued)' }),
  };

  async run() {
    const { flags } = await this.parse(ResultsEndpointSet);
    const body: Record<string, unknown> = { url: flags.url };
    if (flags.events) body.events = [...new Set(flags.events)];
    if (flags.disable) body.enabled = false;
    const { status, body: saved } = await this.api(flags).put<SavedEndpointBody>(ENDPOINT_PATH, { body });
    this.log(status === 201 ? 'Results endpoint created.' : 'Results endpoint saved.');
    this.log(describeEndpoint(saved.endpoint));
    if (saved.secret !== undefined) {
      this.log('');
      this.log(`Signing secret: ${saved.secret}`);
      this.log(
        'It is shown this once: store it with your endpoint now (calc results endpoint rotate-secret makes a new one).',
      );
    }
    this.log('Try it: calc results endpoint test');
    return saved;
  }
}
