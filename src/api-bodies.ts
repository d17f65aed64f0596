/**
 * The JSON bodies the API answers, as its clients (the CLI and the dashboard) read them.
 * Derived from the routes' TypeBox models, so a client cannot drift from the server;
 * type-only imports, erased when a client is bundled.
 */
import type { Static } from 'elysia';
import type { CatalogueCalculator } from './calculators/index.ts';
import type {
  AccountCalculatorAnswer,
  AccountCalculatorList,
  CalculatorDeleted,
  CalculatorVersionList,
  EvaluateAnswer,
} from './modules/account-calculators/index.ts';
import type { AccountEnvelope, AccountOverview, Done, NewToken, Session } from './modules/accounts/index.ts';
import type { CalculatorEnvelope, CalculatorList } from './modules/calculators/index.ts';
import type { DomainEnvelope, DomainList } from './modules/domains/index.ts';
import type { LimitsEnvelope } from './modules/limits/index.ts';
import type { SigningSecretAnswer } from './modules/signing-secret/index.ts';
import type { FunnelReport, UsageReport } from './modules/usage/index.ts';
import type { ConfigAnswer, TestAnswer } from './modules/widget-config/index.ts';
import type { LoadAnswer, OwnLoadedCalculator } from './modules/widget/index.ts';
import type {
  DeliveryList,
  EndpointEnvelope,
  QueuedEvent,
  RotatedSecret,
  SavedEndpoint,
  TestAnswer as ResultsTestAnswer,
} from './modules/results-endpoint/index.ts';
import type { ResultDeleted, ResultEnvelope, ResultList } from './modules/results/index.ts';

/**
 * `Body` with `Key` read as `T`: the schemas describe a calculator only as an object, its
 * shape lives in src/calculators/templates/public.ts and src/definition/.
 */
type WithCalculators<Body, Key extends keyof Body, T> = Omit<Body, Key> & { [K in Key]: T };

export type SessionBody = Static<typeof Session>;
export type AccountOverviewBody = Static<typeof AccountOverview>;
export type AccountBody = Static<typeof AccountEnvelope>;
export type NewTokenBody = Static<typeof NewToken>;
export type DoneBody = Static<typeof Done>;
export type DomainListBody = Static<typeof DomainList>;
export type DomainBody = Static<typeof DomainEnvelope>;
export type DomainJson = DomainBody['domain'];
export type CalculatorListBody = WithCalculators<Static<typeof CalculatorList>, 'calculators', CatalogueCalculator[]>;
export type CalculatorBody = WithCalculators<Static<typeof CalculatorEnvelope>, 'calculator', CatalogueCalculator>;
/** POST /v1/widget/preview answers what a widget load answers: a catalogue calculator or an owner's. */
export type PreviewBody = WithCalculators<
  Static<typeof LoadAnswer>,
  'calculator',
  CatalogueCalculator | OwnLoadedCalculator
>;
export type WidgetConfigBody = Static<typeof ConfigAnswer>;
export type TestWebhookBody = Static<typeof TestAnswer>;
export type SigningSecretBody = Static<typeof SigningSecretAnswer>;
export type UsageReportBody = Static<typeof UsageReport>;
export type FunnelReportBody = Static<typeof FunnelReport>;
export type AccountCalculatorListBody = Static<typeof AccountCalculatorList>;
export type AccountCalculatorBody = Static<typeof AccountCalculatorAnswer>;
export type CalculatorVersionsBody = Static<typeof CalculatorVersionList>;
export type CalculatorDeletedBody = Static<typeof CalculatorDeleted>;
export type EvaluateAnswerBody = Static<typeof EvaluateAnswer>;
export type LimitsBody = Static<typeof LimitsEnvelope>;
export type ResultsEndpointBody = Static<typeof EndpointEnvelope>;
export type SavedEndpointBody = Static<typeof SavedEndpoint>;
export type RotatedSecretBody = Static<typeof RotatedSecret>;
export type DeliveryListBody = Static<typeof DeliveryList>;
export type DeliveryJson = DeliveryListBody['deliveries'][number];
export type TestEventBody = Static<typeof ResultsTestAnswer>;
export type QueuedEventBody = Static<typeof QueuedEvent>;
export type ResultListBody = Static<typeof ResultList>;
export type ResultJson = ResultListBody['results'][number];
export type ResultBody = Static<typeof ResultEnvelope>;
export type ResultDeletedBody = Static<typeof ResultDeleted>;
