import { Elysia, t } from 'elysia';
import type { ServerConfig } from '../../config.ts';
import type { AccountsStore } from '../../db/accounts-store.ts';
import { AppError } from '../../errors.ts';
import { ErrorResponse } from '../../http/model.ts';
import type { UsageCounter } from '../../usage/counter.ts';
import { quotaStatus, type UsageDeps } from '../usage/index.ts';
import { ownerAuth } from '../../http/owner-auth.ts';
import type { LoginLimiter } from '../../limits/login-limiter.ts';
import type { Passwords } from '../../security/passwords.ts';
import {
  AccountEnvelope,
  AccountOverview,
  Credentials,
  Done,
  LogoutRequest,
  NewToken,
  PasswordChange,
  PasswordConfirmation,
  Session,
} from './model.ts';
import {
  authenticate,
  changePassword,
  createAccount,
  deleteAccount,
  rotateApiKey,
  signOutEverywhere,
  toAccountJson,
} from './service.ts';
import type { TokenService } from '../../security/session-tokens.ts';
import type { SigningSecrets } from '../signing-secret/index.ts';

// The module's face: what other parts of calc may use (CONTRIBUTING.md, "Modules and their faces").
export {
  type AccountCreationDeps,
  createAccount,
  normaliseEmail,
  removeAccount,
  resetPassword,
  toAccountJson,
} from './service.ts';
export type { AccountEnvelope, AccountOverview, Done, NewToken, Session } from './model.ts';

export interface AccountsModuleDeps {
  config: ServerConfig;
  accounts: AccountsStore;
  tokens: TokenService;
  limiter: LoginLimiter;
  passwords: Passwords;
  /** A session token at most this old may replace the signing secret without the password. */
  freshAuthSeconds: number;
  signupLimit: { check(request: Request): void };
  usage: UsageCounter;
  usageStore: UsageDeps['usageStore'];
  now: () => Date;
  clientIp: (request: Request) => string;
  publicUrl: () => string;
  signingSecrets: SigningSecrets;
}

/** Sign-up, sign-in, the account overview and key rotation. */
export function accountsModule(deps: AccountsModuleDeps) {
  const session = async (row: Parameters<typeof toAccountJson>[0]) => ({
    // Never before the account's last sign-out, even within the same millisecond.
    ...(await deps.tokens.issue(row.id, row.tokensValidAfter)),
    account: toAccountJson(row),
  });

  return new Elysia({ tags: ['accounts'] })
    .post(
      '/v1/auth/signup',
      async ({ body, set, request }) => {
        if (deps.config.signupDisabled)
          throw new AppError(
            'signup_disabled',
            'Sign-up is disabled on this server. Whoever runs it creates accounts with `calc admin accounts create --email …`, or starts it without --disable-signup.',
          );
        deps.signupLimit.check(request);
        const row = await createAccount(deps, body);
        set.status = 201;
        return session(row);
      },
      {
        body: Credentials,
        response: {
          201: Session,
          400: ErrorResponse,
          403: ErrorResponse,
          409: ErrorResponse,
          429: ErrorResponse,
          503: ErrorResponse,
        },
        detail: { summary: 'Create an account' },
      },
    )
    .post(
      '/v1/auth/login',
      async ({ body, request }) => session(await authenticate(deps, body, deps.clientIp(request))),
      {
        body: Credentials,
        response: { 200: Session, 401: ErrorResponse, 429: ErrorResponse, 503: ErrorResponse },
        detail: { summary: 'Sign in and get a session token' },
      },
    )
    .use(ownerAuth(deps))
    .get(
      '/v1/account',
      async ({ account }) => ({
        account: toAccountJson(account),
        usage: await quotaStatus({ ...deps, quotas: deps.config.quotas }, account),
        publicUrl: deps.publicUrl(),
      }),
      {
        response: { 200: AccountOverview, 401: ErrorResponse },
        detail: { summary: 'The signed-in account, its plan and usage', security: [{ bearer: [] }] },
      },
    )
    .post(
      '/v1/account/rotate-api-key',
      async ({ account }) => ({
        account: toAccountJson(await rotateApiKey(deps, account.id)),
      }),
      {
        response: { 200: AccountEnvelope, 401: ErrorResponse },
        detail: { summary: 'Replace the API key; the old key stops working at once', security: [{ bearer: [] }] },
      },
    )
    .post(
      '/v1/account/password',
      async ({ account, body, request }) =>
        deps.tokens.issue(account.id, await changePassword(deps, account, body, deps.clientIp(request))),
      {
        body: PasswordChange,
        response: { 200: NewToken, 400: ErrorResponse, 401: ErrorResponse, 429: ErrorResponse },
        detail: {
          summary: 'Change the password; every other token of the account stops working',
          security: [{ bearer: [] }],
        },
      },
    )
    .post(
      '/v1/auth/logout',
      async ({ account, tokenIssuedAt, body, request }) => {
        await signOutEverywhere(deps, { account, tokenIssuedAt }, body, deps.clientIp(request));
        return { ok: true as const };
      },
      {
        body: t.Optional(LogoutRequest),
        response: { 200: Done, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 429: ErrorResponse },
        detail: {
          summary:
            'Sign out everywhere: every token issued until now stops working; optionally replace the signing secret at once',
          security: [{ bearer: [] }],
        },
      },
    )
    .delete(
      '/v1/account',
      async ({ account, body, request }) => {
        await deleteAccount(deps, account, body.password, deps.clientIp(request));
        return { ok: true as const };
      },
      {
        body: PasswordConfirmation,
        response: { 200: Done, 400: ErrorResponse, 401: ErrorResponse, 429: ErrorResponse },
        detail: {
          summary: 'Delete the account with its domains, configs, secrets and usage; its key and tokens stop at once',
          security: [{ bearer: [] }],
        },
      },
    );
}
