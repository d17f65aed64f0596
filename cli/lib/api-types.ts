/**
 * Bodies of the routes the owner commands call. Type-only imports of the server's
 * TypeBox schemas (erased at build time), so the CLI and the server cannot drift apart.
 */
import type { Static } from 'elysia';
import type { AccountEnvelope, AccountOverview, Done, NewToken, Session } from '../../src/modules/accounts/model.ts';
import type { DomainEnvelope, DomainList } from '../../src/modules/domains/model.ts';
import type { SigningSecretAnswer } from '../../src/modules/signing-secret/model.ts';
import type { UsageReport } from '../../src/modules/usage/model.ts';
import type { ConfigAnswer, TestAnswer } from '../../src/modules/widget-config/model.ts';

export type SessionBody = Static<typeof Session>;
export type AccountOverviewBody = Static<typeof AccountOverview>;
export type AccountBody = Static<typeof AccountEnvelope>;
export type NewTokenBody = Static<typeof NewToken>;
export type DoneBody = Static<typeof Done>;
export type DomainListBody = Static<typeof DomainList>;
export type DomainBody = Static<typeof DomainEnvelope>;
export type DomainJson = DomainBody['domain'];

interface CalculatorSummary {
  id: string;
  title: string;
  category?: string;
  unitSystems?: string[];
  fields?: { key: string }[];
}

export interface CalculatorListBody {
  calculators: CalculatorSummary[];
}

export interface CalculatorBody {
  calculator: CalculatorSummary;
}

export type WidgetConfigBody = Static<typeof ConfigAnswer>;
export type TestWebhookBody = Static<typeof TestAnswer>;
export type SigningSecretBody = Static<typeof SigningSecretAnswer>;
export type UsageReportBody = Static<typeof UsageReport>;
