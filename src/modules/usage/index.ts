import { Elysia } from 'elysia';
import type { AccountsStore } from '../../db/accounts-store.ts';
import { ErrorResponse } from '../../http/model.ts';
import { ownerAuth } from '../accounts/auth.ts';
import type { TokenService } from '../accounts/tokens.ts';
import { UsageQuery, UsageReport } from './model.ts';
import { usageReport, type UsageDeps } from './service.ts';

/** The owner's usage history: loads per day, calculator and origin, and webhook outcomes. */
export function usageModule(deps: UsageDeps & { tokens: TokenService; accounts: AccountsStore }) {
  return new Elysia({ tags: ['usage'] })
    .use(ownerAuth(deps))
    .get('/v1/usage', ({ account, query }) => usageReport(deps, account, query), {
      query: UsageQuery,
      response: { 200: UsageReport, 400: ErrorResponse, 401: ErrorResponse },
      detail: {
        summary: 'Loads per day, calculator and origin, and webhook outcomes, for a range of days (default: 30 days)',
        security: [{ bearer: [] }],
      },
    });
}
