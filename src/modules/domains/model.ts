import { type Static, t } from 'elysia';
import { EXAMPLE } from '../../http/model.ts';

export const DomainBody = t.Object({
  domain: t.String({
    maxLength: 300,
    description: 'An origin: http(s)://host[:port]; owners may use a leading *.',
    examples: [EXAMPLE.origin],
  }),
});

const Domain = t.Object({
  domain: t.String({ examples: [EXAMPLE.origin] }),
  status: t.Union([t.Literal('active'), t.Literal('pending')]),
  createdAt: t.String({ format: 'date-time', examples: [EXAMPLE.domainCreatedAt] }),
});

export type DomainJson = Static<typeof Domain>;

export const DomainEnvelope = t.Object({ domain: Domain });
export const DomainList = t.Object({ domains: t.Array(Domain) });

export const RegisterDomainBody = t.Object({
  apiKey: t.String({ maxLength: 200, examples: [EXAMPLE.apiKey] }),
  domain: t.String({ maxLength: 300, examples: [EXAMPLE.origin] }),
});
