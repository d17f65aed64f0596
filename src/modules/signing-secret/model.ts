import { t, type Static } from 'elysia';
import { EXAMPLE } from '../../http/model.ts';

export const SigningSecretAnswer = t.Object({
  signingSecret: t.String({
    description: 'whsec_…: signs every webhook GET (Calc-Signature) and the visitor context tokens you mint',
    examples: [EXAMPLE.signingSecret],
  }),
  createdAt: t.String({ format: 'date-time', examples: [EXAMPLE.now] }),
  previousValidUntil: t.Union([t.String({ format: 'date-time' }), t.Null()], {
    description: 'Until then the previous secret still signs pulls and verifies context tokens; null when none',
    examples: [EXAMPLE.previousSecretValidUntil],
  }),
});

export type SigningSecretJson = Static<typeof SigningSecretAnswer>;
