import { type Static, t } from 'elysia';

export const DomainBody = t.Object({
  domain: t.String({ maxLength: 300, description: 'An origin: http(s)://host[:port]; owners may use a leading *.' }),
});

const Domain = t.Object({
  domain: t.String(),
  status: t.Union([t.Literal('active'), t.Literal('pending')]),
  createdAt: t.String({ format: 'date-time' }),
});

export type DomainJson = Static<typeof Domain>;

export const DomainEnvelope = t.Object({ domain: Domain });
export const DomainList = t.Object({ domains: t.Array(Domain) });

export const RegisterDomainBody = t.Object({
  apiKey: t.String({ maxLength: 200 }),
  domain: t.String({ maxLength: 300 }),
});
