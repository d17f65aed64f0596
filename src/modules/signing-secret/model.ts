import { t, type Static } from 'elysia';
import { EXAMPLE } from '../../http/model.ts';

export const SigningSecretAnswer = t.Object({
  signingSecret: t.Union([t.String(), t.Null()], {
    description:
      'whsec_…: signs every webhook GET (Calc-Signature) and the visitor context tokens you mint. Null when the session was signed in more than a few minutes ago (CALC_FRESH_AUTH_SECONDS, 300 by default): reveal it with the password',
    examples: [EXAMPLE.signingSecret],
  }),
  last4: t.String({
    description: 'The last four characters of the secret, to tell secrets apart without showing them',
    examples: [EXAMPLE.signingSecret.slice(-4)],
  }),
  createdAt: t.String({ format: 'date-time', examples: [EXAMPLE.now] }),
  previousValidUntil: t.Union([t.String({ format: 'date-time' }), t.Null()], {
    description: 'Until then the previous secret still signs pulls and verifies context tokens; null when none',
    examples: [EXAMPLE.previousSecretValidUntil],
  }),
});

export type SigningSecretJson = Static<typeof SigningSecretAnswer>;

const password = (description: string) =>
  t.String({ minLength: 1, maxLength: 1024, description, examples: [EXAMPLE.password] });

export const RevealSigningSecretRequest = t.Object({ password: password("The account's password") });

export const RotateSigningSecretRequest = t.Object({
  password: t.Optional(
    password("The account's password: needed when the session was signed in more than a few minutes ago"),
  ),
  now: t.Optional(
    t.Boolean({
      description:
        'End the previous secret at once instead of after 24 hours (the secret may have leaked); signatures with it stop verifying now',
      examples: [true],
    }),
  ),
});
