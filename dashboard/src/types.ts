/**
 * Bodies of the routes the dashboard calls. Type-only imports of the server's TypeBox
 * schemas (erased by the bundler), so the dashboard and the server cannot drift apart.
 */
import type { Static } from 'elysia';
import type { PublicCalculator } from '../../src/calculators/definition.ts';
import type { AccountEnvelope, AccountOverview, NewToken, Session } from '../../src/modules/accounts/model.ts';
import type { DomainEnvelope, DomainList } from '../../src/modules/domains/model.ts';
import type { SigningSecretAnswer } from '../../src/modules/signing-secret/model.ts';
import type { UsageReport } from '../../src/modules/usage/model.ts';
import type { ConfigAnswer, TestAnswer } from '../../src/modules/widget-config/model.ts';
import type { LoadAnswer } from '../../src/modules/widget/model.ts';

export type SessionBody = Static<typeof Session>;
export type OverviewBody = Static<typeof AccountOverview>;
export type AccountBody = Static<typeof AccountEnvelope>;
export type NewTokenBody = Static<typeof NewToken>;
export type Plan = OverviewBody['account']['plan'];
export type DomainListBody = Static<typeof DomainList>;
export type DomainBody = Static<typeof DomainEnvelope>;
export type DomainJson = DomainBody['domain'];
export type WidgetConfigBody = Static<typeof ConfigAnswer>;
export type TestWebhookBody = Static<typeof TestAnswer>;
export type PreviewBody = Omit<Static<typeof LoadAnswer>, 'calculator'> & { calculator: PublicCalculator };
export type { PublicCalculator };

export interface CalculatorListBody {
  calculators: PublicCalculator[];
}

export interface CalculatorBody {
  calculator: PublicCalculator;
}

export type UsageBody = Static<typeof UsageReport>;
export type SigningSecretBody = Static<typeof SigningSecretAnswer>;
