import type { RotatedSecretBody } from '../../../../src/api-bodies.ts';
import { confirmAction, yesFlag } from '../../../lib/confirm.ts';
import { ENDPOINT_PATH } from '../../../lib/results-endpoint.ts';
import { OwnerCommand } from '../../../owner-command.ts';

export default class ResultsEndpointRotateSecret extends OwnerCommand {
  static override summary = "Replace the results endpoint's signing secret; the old one signs too for 24 hours.";
  static override description =
    'The new secret is shown this once. For 24 hours every delivery carries two signatures, one per secret, so your endpoint keeps verifying while you deploy the new one; then the old one stops. ' +
    'Asks first on a terminal; scripts pass --yes. With --json, stdout holds the body of POST /v1/account/results-endpoint/rotate-secret.';
  static override examples = [
    '<%= config.bin %> results endpoint rotate-secret',
    '<%= config.bin %> results endpoint rotate-secret --yes --json',
  ];
  static override flags = { yes: yesFlag };

  async run() {
    const { flags } = await this.parse(ResultsEndpointRotateSecret);
    const api = this.api(flags);
    api.ensureSignedIn();
    if (!flags.yes)
      await confirmAction(
        'The current secret signs deliveries for 24 more hours only; an endpoint that still verifies with it then refuses them. A secret replaced by an earlier rotation stops at once.',
        'Rotate the results endpoint secret?',
      );
    const { body } = await api.post<RotatedSecretBody>(`${ENDPOINT_PATH}/rotate-secret`);
    this.log(`New signing secret: ${body.secret}`);
    this.log(`It is shown this once. The previous secret signs too until ${body.previousValidUntil}.`);
    return body;
  }
}
