import { Elysia } from 'elysia';
import type { AccountsStore } from '../../db/accounts-store.ts';
import { ErrorResponse } from '../../http/model.ts';
import { ownerAuth } from '../../http/owner-auth.ts';
import type { TokenService } from '../../security/session-tokens.ts';
import { SigningSecretAnswer } from './model.ts';
import type { SigningSecrets } from './service.ts';

// The module's face: what other parts of calc may use (CONTRIBUTING.md, "Modules and their faces").
export { createSigningSecrets, type SigningSecrets } from './service.ts';
export type { SigningSecretAnswer } from './model.ts';

const bearer = [{ bearer: [] }];

/** The owner's signing secret: read it, rotate it. */
export function signingSecretModule(deps: {
  signingSecrets: SigningSecrets;
  tokens: TokenService;
  accounts: AccountsStore;
}) {
  return new Elysia({ tags: ['accounts'] })
    .use(ownerAuth(deps))
    .onAfterHandle(({ set }) => {
      // A secret in the answer: no cache may keep a copy.
      set.headers['cache-control'] = 'no-store';
    })
    .get('/v1/account/signing-secret', ({ account }) => deps.signingSecrets.read(account.id), {
      response: { 200: SigningSecretAnswer, 401: ErrorResponse },
      detail: { summary: 'The signing secret for webhook signatures and visitor context tokens', security: bearer },
    })
    .post('/v1/account/signing-secret', ({ account }) => deps.signingSecrets.rotate(account.id), {
      response: { 200: SigningSecretAnswer, 401: ErrorResponse },
      detail: {
        summary: 'Replace the signing secret; the previous one stays valid for 24 hours',
        security: bearer,
      },
    });
}
