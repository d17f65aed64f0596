import { t, type Static } from 'elysia';
import { QuotaStatus } from '../usage/model.ts';
import { PLANS } from '../../plans.ts';

export const Credentials = t.Object({
  email: t.String({ minLength: 3, maxLength: 254, description: 'Sign-in email address' }),
  password: t.String({ minLength: 10, maxLength: 1024, description: 'At least 10 characters' }),
});

const Account = t.Object({
  id: t.String(),
  email: t.String(),
  plan: t.UnionEnum(PLANS),
  apiKey: t.String({ description: 'Public widget key (pk_…): embedded in pages, not secret' }),
  createdAt: t.String({ format: 'date-time' }),
});

export const Session = t.Object({
  token: t.String({ description: 'JWT for Authorization: Bearer …' }),
  expiresAt: t.String({ format: 'date-time' }),
  account: Account,
});

export const AccountOverview = t.Object({
  account: Account,
  usage: QuotaStatus,
  publicUrl: t.String({ description: 'Base URL for embed snippets' }),
});

export type AccountJson = Static<typeof Account>;

export const AccountEnvelope = t.Object({ account: Account });

export const PasswordChange = t.Object({
  currentPassword: t.String({ minLength: 1, maxLength: 1024, description: 'The password in use now' }),
  newPassword: t.String({ minLength: 10, maxLength: 1024, description: 'At least 10 characters' }),
});

export const NewToken = t.Object({
  token: t.String({ description: 'JWT for Authorization: Bearer …; every other token of the account stops working' }),
  expiresAt: t.String({ format: 'date-time' }),
});

export const PasswordConfirmation = t.Object({
  password: t.String({ minLength: 1, maxLength: 1024, description: "The account's password" }),
});

export const Done = t.Object({ ok: t.Literal(true) });
