import { Elysia } from 'elysia';
import type { AccountsStore } from '../../db/accounts-store.ts';
import { ErrorResponse } from '../../http/model.ts';
import { ownerAuth } from '../../http/owner-auth.ts';
import type { TokenService } from '../../security/session-tokens.ts';
import { LimitsEnvelope, LimitsRequest } from './model.ts';
import { limitsOf, setLimits } from './service.ts';

// The module's face: what other parts of calc may use (CONTRIBUTING.md, "Modules and their faces").
export type { LimitsEnvelope } from './model.ts';

const bearer = [{ bearer: [] }];

/** The owner's caps on the public key: daily loads, loads per origin, pulls a second, register-domain. */
export function limitsModule(deps: { tokens: TokenService; accounts: AccountsStore }) {
  return new Elysia({ tags: ['accounts'] })
    .use(ownerAuth(deps))
    .get('/v1/account/limits', ({ account }) => ({ limits: limitsOf(account) }), {
      response: { 200: LimitsEnvelope, 401: ErrorResponse },
      detail: {
        summary: "The owner's caps on widget loads and webhook pulls, and the register-domain switch",
        security: bearer,
      },
    })
    .put('/v1/account/limits', async ({ account, body }) => ({ limits: await setLimits(deps, account, body) }), {
      body: LimitsRequest,
      response: { 200: LimitsEnvelope, 400: ErrorResponse, 401: ErrorResponse },
      detail: {
        summary: 'Set or clear caps (the fields named; null clears one) and the register-domain switch',
        security: bearer,
      },
    });
}
