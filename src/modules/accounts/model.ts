import { t, type Static } from 'elysia';
import { EXAMPLE } from '../../http/model.ts';
import { QuotaStatus } from '../usage/index.ts';
import { PLANS } from '../../plans.ts';

export const Credentials = t.Object({
  email: t.String({ minLength: 3, maxLength: 254, description: 'Sign-in email address', examples: [EXAMPLE.email] }),
  password: t.String({
    minLength: 10,
    maxLength: 1024,
    description: 'At least 10 characters',
    examples: [EXAMPLE.password],
  }),
});

const Account = t.Object({
  id: t.String({ examples: [EXAMPLE.accountId] }),
  email: t.String({ examples: [EXAMPLE.email] }),
  plan: t.UnionEnum(PLANS),
  apiKey: t.String({
    description: 'Public widget key (pk_…): embedded in pages, not secret',
    examples: [EXAMPLE.apiKey],
  }),
  createdAt: t.String({ format: 'date-time', examples: [EXAMPLE.accountCreatedAt] }),
});

export const Session = t.Object({
  token: t.String({ description: 'JWT for Authorization: Bearer …', examples: [EXAMPLE.token] }),
  expiresAt: t.String({ format: 'date-time', examples: [EXAMPLE.tokenExpiresAt] }),
  account: Account,
});

export const AccountOverview = t.Object({
  account: Account,
  usage: QuotaStatus,
  publicUrl: t.String({ description: 'Base URL for embed snippets', examples: [EXAMPLE.publicUrl] }),
});

export type AccountJson = Static<typeof Account>;

export const AccountEnvelope = t.Object({ account: Account });

const RotateSigningSecret = t.Boolean({
  description:
    'Also replace the signing secret, ending the current one at once (it may have leaked with the session); your backend needs the new one',
  examples: [true],
});

export const PasswordChange = t.Object({
  currentPassword: t.String({
    minLength: 1,
    maxLength: 1024,
    description: 'The password in use now',
    examples: [EXAMPLE.password],
  }),
  newPassword: t.String({
    minLength: 10,
    maxLength: 1024,
    description: 'At least 10 characters',
    examples: [EXAMPLE.newPassword],
  }),
  rotateSigningSecret: t.Optional(RotateSigningSecret),
});

export const NewToken = t.Object({
  token: t.String({
    description: 'JWT for Authorization: Bearer …; every other token of the account stops working',
    examples: [EXAMPLE.token],
  }),
  expiresAt: t.String({ format: 'date-time', examples: [EXAMPLE.tokenExpiresAt] }),
});

export const PasswordConfirmation = t.Object({
  password: t.String({
    minLength: 1,
    maxLength: 1024,
    description: "The account's password",
    examples: [EXAMPLE.password],
  }),
});

export const Done = t.Object({ ok: t.Literal(true) });

export const LogoutRequest = t.Object({
  rotateSigningSecret: t.Optional(RotateSigningSecret),
  password: t.Optional(
    t.String({
      minLength: 1,
      maxLength: 1024,
      description:
        "The account's password: needed with `rotateSigningSecret` when the session was signed in more than a few minutes ago",
      examples: [EXAMPLE.password],
    }),
  ),
});
