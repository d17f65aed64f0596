import { Elysia } from 'elysia';
import type { AccountRow, AccountsStore } from '../db/accounts-store.ts';
import { AppError } from '../errors.ts';
import type { TokenService } from '../security/session-tokens.ts';

/**
 * Resolves `account` from `Authorization: Bearer <JWT>` for owner routes. The account
 * (and so its plan) is read from the store on every request: a token never carries
 * the plan, so a downgrade is effective immediately, and a token issued before the
 * account's `tokensValidAfter` is refused. Scoped, so it guards the routes
 * of the module that uses it and nothing else.
 */
export function ownerAuth(deps: { tokens: TokenService; accounts: AccountsStore }) {
  // derive, not resolve: it runs before body validation, so a caller without a valid
  // token learns nothing about the body's schema and costs no parsing work.
  return new Elysia().derive(
    { as: 'scoped' },
    async ({ headers }): Promise<{ account: AccountRow; tokenIssuedAt: number }> => {
      const header = headers.authorization;
      const match = header ? /^Bearer +([A-Za-z0-9_\-.]{1,4096})$/i.exec(header) : null;
      if (!match?.[1])
        throw new AppError('unauthorized', 'Sign in and send the token as Authorization: Bearer <token>.');
      const verified = await deps.tokens.verify(match[1]);
      const account = verified ? await deps.accounts.findById(verified.accountId) : undefined;
      // Signed out everywhere (logout, a new password, an operator's reset) after this token was issued.
      if (!account || !verified || verified.issuedAt < account.tokensValidAfter)
        throw new AppError('unauthorized', 'The session token is invalid or has expired. Sign in again.');
      // When the session was signed in: the signing secret asks for a recent one (docs/security.md).
      return { account, tokenIssuedAt: verified.issuedAt };
    },
  );
}
