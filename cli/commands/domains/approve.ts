import { Args } from '@oclif/core';
import { normaliseOrigin } from '../../../src/domains/origin.ts';
import { CliFailure } from '../../base-command.ts';
import { OwnerCommand } from '../../owner-command.ts';
import type { DomainBody, DomainListBody } from '../../../src/api-bodies.ts';

export default class DomainsApprove extends OwnerCommand {
  static override summary = 'Approve a pending domain request so widgets on that origin load.';
  static override description =
    'Only a pending request can be approved (see `calc domains`); to allow a new origin use `calc domains add`. ' +
    'With --json, stdout holds the body of POST /v1/domains.';
  static override examples = ['<%= config.bin %> domains approve https://blog.shop.example'];
  static override args = {
    origin: Args.string({ description: 'a pending origin, as listed by `calc domains`', required: true }),
  };

  async run() {
    const { args, flags } = await this.parse(DomainsApprove);
    const api = this.api(flags);
    // The same spelling rules as the server, so "https://Blog.Shop.Example/" finds its request.
    const { origin } = normaliseOrigin(args.origin);
    const { body: list } = await api.get<DomainListBody>('/v1/domains');
    const found = list.domains.find((d) => d.domain === origin);
    if (!found)
      throw new CliFailure(`There is no pending request for ${origin}. To allow it anyway: calc domains add ${origin}`);
    if (found.status !== 'pending') throw new CliFailure(`${origin} is already active; there is nothing to approve.`);
    const { body } = await api.post<DomainBody>('/v1/domains', { body: { domain: origin } });
    this.log(`Approved ${body.domain.domain}; it is active.`);
    return body;
  }
}
