import { Elysia } from 'elysia';
import type { AccountsStore } from '../../db/accounts-store.ts';
import { documentedOk, ErrorResponse } from '../../http/model.ts';
import { ownerAuth } from '../../http/owner-auth.ts';
import type { TokenService } from '../../security/session-tokens.ts';
import { FunnelQuery, FunnelReport, UsageQuery, UsageReport } from './model.ts';
import { funnelReport, usageReport, type UsageDeps } from './service.ts';

// The module's face: what other parts of calc may use (CONTRIBUTING.md, "Modules and their faces").
export { quotaStatus, type UsageDeps } from './service.ts';
export { FunnelReport, QuotaStatus, type UsageReport } from './model.ts';

const JSON_TYPE = { 'content-type': 'application/json' };

/**
 * The owner's usage history: loads per day, calculator and origin, webhook outcomes,
 * skipped pulls, refusals and the funnel; the funnel's totals and rates.
 */
export function usageModule(deps: UsageDeps & { tokens: TokenService; accounts: AccountsStore }) {
  return new Elysia({ tags: ['usage'] })
    .use(ownerAuth(deps))
    .get(
      '/v1/usage',
      // Serialised here: a year of rows is too many for a per-request schema walk, and
      // the service's answer is typed by the same schema.
      async ({ account, query }) =>
        new Response(JSON.stringify(await usageReport(deps, account, query)), { headers: JSON_TYPE }),
      {
        query: UsageQuery,
        response: { 400: ErrorResponse, 401: ErrorResponse },
        detail: {
          summary:
            'Loads per day, calculator and origin, webhook outcomes, skipped pulls, refused calls and funnel steps, for a range of days (default: 30 days)',
          security: [{ bearer: [] }],
          responses: { 200: documentedOk(UsageReport) },
        },
      },
    )
    .get('/v1/usage/funnel', async ({ account, query }) => funnelReport(deps, account, query), {
      query: FunnelQuery,
      response: { 200: FunnelReport, 400: ErrorResponse, 401: ErrorResponse },
      detail: {
        summary:
          'Funnel totals (views, starts, completes, submits) and the rates between steps, in all and per calculator, for a range of days',
        security: [{ bearer: [] }],
      },
    });
}
