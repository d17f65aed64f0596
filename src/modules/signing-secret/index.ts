import { Elysia, t } from 'elysia';
import type { AccountsStore } from '../../db/accounts-store.ts';
import { ErrorResponse } from '../../http/model.ts';
import { noStore } from '../../http/no-store.ts';
import { ownerAuth } from '../../http/owner-auth.ts';
import type { TokenService } from '../../security/session-tokens.ts';
import { RevealSigningSecretRequest, RotateSigningSecretRequest, SigningSecretAnswer } from './model.ts';
import { confirmSecretAccess, isFreshSession, type SecretAccessDeps, type SigningSecrets } from './service.ts';

// The module's face: what other parts of calc may use (CONTRIBUTING.md, "Modules and their faces").
export {
  confirmSecretAccess,
  createSigningSecrets,
  type SecretAccessDeps,
  type SigningSecrets,
} from './service.ts';
export type { SigningSecretAnswer } from './model.ts';

const bearer = [{ bearer: [] }];

/** The owner's signing secret: read it (whole only with a fresh session or the password), rotate it. */
export function signingSecretModule(
  deps: SecretAccessDeps & {
    signingSecrets: SigningSecrets;
    tokens: TokenService;
    accounts: AccountsStore;
    clientIp: (request: Request) => string;
  },
) {
  return new Elysia({ tags: ['accounts'], detail: { security: bearer, ...noStore.detail } })
    .use(ownerAuth(deps))
    .onAfterHandle(noStore.hook)
    .get(
      '/v1/account/signing-secret',
      ({ account, tokenIssuedAt }) => deps.signingSecrets.read(account.id, isFreshSession(deps, tokenIssuedAt)),
      {
        response: { 200: SigningSecretAnswer, 401: ErrorResponse },
        detail: {
          summary:
            'The signing secret for webhook signatures and visitor context tokens (whole only to a session signed in within the last few minutes)',
          security: bearer,
        },
      },
    )
    .post(
      '/v1/account/signing-secret/reveal',
      async ({ account, tokenIssuedAt, body, request }) => {
        await confirmSecretAccess(
          deps,
          { account, tokenIssuedAt },
          body.password,
          deps.clientIp(request),
          'Revealing the signing secret',
        );
        return deps.signingSecrets.read(account.id);
      },
      {
        body: RevealSigningSecretRequest,
        response: { 200: SigningSecretAnswer, 400: ErrorResponse, 401: ErrorResponse, 429: ErrorResponse },
        detail: { summary: 'The whole signing secret, for the right password', security: bearer },
      },
    )
    .post(
      '/v1/account/signing-secret',
      async ({ account, tokenIssuedAt, body, request }) => {
        await confirmSecretAccess(
          deps,
          { account, tokenIssuedAt },
          body?.password,
          deps.clientIp(request),
          'Replacing the signing secret',
        );
        return deps.signingSecrets.rotate(account.id, { endOverlap: body?.now === true });
      },
      {
        body: t.Optional(RotateSigningSecretRequest),
        response: {
          200: SigningSecretAnswer,
          400: ErrorResponse,
          401: ErrorResponse,
          403: ErrorResponse,
          429: ErrorResponse,
        },
        detail: {
          summary:
            'Replace the signing secret; the previous one stays valid for 24 hours, or stops at once with `now` (needs a fresh session or the password)',
          security: bearer,
        },
      },
    );
}
