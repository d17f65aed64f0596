import { Args } from '@oclif/core';
import { OwnerCommand } from '../../owner-command.ts';
import type { DomainBody } from '../../../src/api-bodies.ts';

export default class DomainsAdd extends OwnerCommand {
  static override summary = 'Allow an origin to embed your calculators.';
  static override description =
    'ORIGIN is scheme://host[:port] with no path. A leading *. label (https://*.shop.example) admits every subdomain, not the bare domain. ' +
    'Adding an origin with a pending request approves it. With --json, stdout holds the body of POST /v1/domains.';
  static override examples = [
    '<%= config.bin %> domains add https://shop.example',
    '<%= config.bin %> domains add "https://*.shop.example"',
    '<%= config.bin %> domains add http://localhost:3000',
  ];
  static override args = {
    origin: Args.string({ description: 'origin such as https://shop.example', required: true }),
  };

  async run() {
    const { args, flags } = await this.parse(DomainsAdd);
    const { status, body } = await this.api(flags).post<DomainBody>('/v1/domains', { body: { domain: args.origin } });
    // 200 means nothing changed; 201 means added now (or a pending request became active).
    this.log(
      status === 201 ? `Added ${body.domain.domain}; it is active.` : `${body.domain.domain} was already active.`,
    );
    return body;
  }
}
