import { type Static, t, type TSchema } from 'elysia';
import { DOMAIN_STATUSES } from '../../domains/status.ts';
import { EXAMPLE } from '../../http/model.ts';

export const DomainRequest = t.Object({
  domain: t.String({
    maxLength: 300,
    description: 'An origin: http(s)://host[:port]; owners may use a leading *.',
    examples: [EXAMPLE.origin],
  }),
});

const domainWith = <S extends TSchema>(status: S) =>
  t.Object({
    domain: t.String({ examples: [EXAMPLE.origin] }),
    status,
    createdAt: t.String({ format: 'date-time', examples: [EXAMPLE.domainCreatedAt] }),
  });

const Domain = domainWith(t.UnionEnum(DOMAIN_STATUSES));

export type DomainJson = Static<typeof Domain>;

export const DomainEnvelope = t.Object({ domain: Domain });
/** A page's request for its origin, by answer: already active (200) or waiting (202). */
export const ActiveDomainEnvelope = t.Object({ domain: domainWith(t.Literal('active')) });
export const PendingDomainEnvelope = t.Object({ domain: domainWith(t.Literal('pending')) });
export const DomainList = t.Object({ domains: t.Array(Domain) });

export const RegisterDomainRequest = t.Object({
  apiKey: t.String({ maxLength: 200, examples: [EXAMPLE.apiKey] }),
  domain: t.String({ maxLength: 300, examples: [EXAMPLE.origin] }),
});
