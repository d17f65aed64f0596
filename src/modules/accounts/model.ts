import { t, type Static } from 'elysia';
import { QuotaStatus } from '../usage/model.ts';

export const Credentials = t.Object({
  email: t.String({ minLength: 3, maxLength: 254, description: 'Sign-in email address' }),
  password: t.String({ minLength: 10, maxLength: 1024, description: 'At least 10 characters' }),
});

const Account = t.Object({
  id: t.String(),
  email: t.String(),
  plan: t.Union([t.Literal('free'), t.Literal('base'), t.Literal('extra')]),
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
