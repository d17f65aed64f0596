import { t, type Static } from 'elysia';

export const SigningSecretAnswer = t.Object({
  signingSecret: t.String({
    description: 'whsec_…: signs every webhook GET (Calc-Signature) and the visitor context tokens you mint',
  }),
  createdAt: t.String({ format: 'date-time' }),
  previousValidUntil: t.Union([t.String({ format: 'date-time' }), t.Null()], {
    description: 'Until then the previous secret still signs pulls and verifies context tokens; null when none',
  }),
});

export type SigningSecretJson = Static<typeof SigningSecretAnswer>;
