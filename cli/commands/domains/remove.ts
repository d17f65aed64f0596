import { Args } from '@oclif/core';
import type { DomainBody } from '../../../src/api-bodies.ts';
import { confirmAction, yesFlag } from '../../lib/confirm.ts';
import { OwnerCommand } from '../../owner-command.ts';

export default class DomainsRemove extends OwnerCommand {
  static override summary = 'Stop an origin from embedding your calculators, or refuse a pending request.';
  static override description =
    'Widgets on that origin stop loading at once. On a terminal it asks first; scripts pass --yes. With --json, stdout holds the body of DELETE /v1/domains.';
  static override examples = [
    '<%= config.bin %> domains remove https://old-shop.example',
    '<%= config.bin %> domains remove https://old-shop.example --yes',
  ];
  static override flags = { yes: yesFlag };
  static override args = {
    origin: Args.string({ description: 'origin to remove, as listed by `calc domains`', required: true }),
  };

  async run() {
    const { args, flags } = await this.parse(DomainsRemove);
    const api = this.api(flags);
    api.ensureSignedIn();
    if (!flags.yes)
      await confirmAction(`Calculators embedded on ${args.origin} stop loading at once.`, `Remove ${args.origin}?`);
    const { body } = await api.delete<DomainBody>('/v1/domains', { body: { domain: args.origin } });
    this.log(`Removed ${body.domain.domain}${body.domain.status === 'pending' ? ' (a pending request)' : ''}.`);
    return body;
  }
}
