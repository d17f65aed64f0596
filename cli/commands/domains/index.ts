import { OwnerCommand } from '../../owner-command.ts';
import type { DomainJson, DomainListBody } from '../../../src/api-bodies.ts';
import { formatTable } from '../../lib/table.ts';

export default class Domains extends OwnerCommand {
  static override summary = 'List the origins allowed to embed your calculators, with pending requests.';
  static override description =
    'A pending request was recorded by a page that used your public API key from an origin you have not added; ' +
    'it is not live until you approve it with `calc domains approve ORIGIN`. With --json, stdout holds the body of GET /v1/domains.';
  static override examples = ['<%= config.bin %> domains', '<%= config.bin %> domains --json'];

  async run() {
    const { flags } = await this.parse(Domains);
    const { body } = await this.api(flags).get<DomainListBody>('/v1/domains');
    this.log(describe(body.domains));
    return body;
  }
}

function describe(domains: DomainJson[]): string {
  if (domains.length === 0) return 'No domains yet. Add your site: calc domains add https://shop.example';
  // Pending first: they are the ones waiting for a decision.
  const sorted = [...domains].sort((a, b) =>
    a.status === b.status ? a.domain.localeCompare(b.domain) : a.status === 'pending' ? -1 : 1,
  );
  const rows = sorted.map((d) => [d.domain, d.status === 'pending' ? 'PENDING approval' : 'active', d.createdAt]);
  const lines = [formatTable(['DOMAIN', 'STATUS', 'SINCE'], rows)];
  const pending = domains.filter((d) => d.status === 'pending').length;
  if (pending > 0) {
    lines.push(
      '',
      `${pending} pending ${pending === 1 ? 'request' : 'requests'}: approve with \`calc domains approve ORIGIN\`, or refuse with \`calc domains remove ORIGIN\`.`,
    );
  }
  return lines.join('\n');
}
