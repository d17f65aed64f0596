import { Args } from '@oclif/core';
import { OwnerCommand } from '../../owner-command.ts';
import type { DomainBody } from '../../lib/api-types.ts';

export default class DomainsRemove extends OwnerCommand {
  static override summary = 'Stop an origin from embedding your calculators, or refuse a pending request.';
  static override description =
    'Widgets on that origin stop loading at once. With --json, stdout holds the body of DELETE /v1/domains.';
  static override examples = ['<%= config.bin %> domains remove https://old-shop.example'];
  static override args = {
    origin: Args.string({ description: 'origin to remove, as listed by `calc domains`', required: true }),
  };

  async run() {
    const { args, flags } = await this.parse(DomainsRemove);
    const { body } = await this.api(flags).delete<DomainBody>('/v1/domains', { body: { domain: args.origin } });
    this.log(`Removed ${body.domain.domain}${body.domain.status === 'pending' ? ' (a pending request)' : ''}.`);
    return body;
  }
}
