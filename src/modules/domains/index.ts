import { Elysia } from 'elysia';
import type { AccountsStore } from '../../db/accounts-store.ts';
import { ErrorResponse } from '../../http/model.ts';
import { ownerAuth } from '../../http/owner-auth.ts';
import type { TokenService } from '../../security/session-tokens.ts';
import { DomainRequest, DomainEnvelope, DomainList } from './model.ts';
import { addDomain, listDomains, removeDomain, type DomainsDeps } from './service.ts';

// The module's face: what other parts of calc may use (CONTRIBUTING.md, "Modules and their faces").
export { addDomain, type DomainsDeps, requestDomain } from './service.ts';
export {
  ActiveDomainEnvelope,
  DomainEnvelope,
  type DomainJson,
  type DomainList,
  PendingDomainEnvelope,
  RegisterDomainRequest,
} from './model.ts';

const bearer = [{ bearer: [] }];

/** Owner routes for the origins allowed to embed the account's widgets. */
export function domainsModule(deps: DomainsDeps & { tokens: TokenService; accounts: AccountsStore }) {
  return new Elysia({ tags: ['domains'] })
    .use(ownerAuth(deps))
    .get('/v1/domains', async ({ account }) => ({ domains: await listDomains(deps, account.id) }), {
      response: { 200: DomainList, 401: ErrorResponse },
      detail: { summary: 'List active domains and pending requests', security: bearer },
    })
    .post(
      '/v1/domains',
      async ({ account, body, set }) => {
        const { domain, created } = await addDomain(deps, account.id, body.domain);
        set.status = created ? 201 : 200;
        return { domain };
      },
      {
        body: DomainRequest,
        response: { 200: DomainEnvelope, 201: DomainEnvelope, 400: ErrorResponse, 401: ErrorResponse },
        detail: { summary: 'Add an origin, or approve a pending request for it', security: bearer },
      },
    )
    .delete(
      '/v1/domains',
      async ({ account, body }) => ({ domain: await removeDomain(deps, account.id, body.domain) }),
      {
        body: DomainRequest,
        response: { 200: DomainEnvelope, 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse },
        detail: { summary: 'Remove an origin or a pending request', security: bearer },
      },
    );
}
