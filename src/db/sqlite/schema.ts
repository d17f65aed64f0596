import { sql } from 'drizzle-orm';
import { foreignKey, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { DOMAIN_STATUSES } from '../../domains/status.ts';
import { DEFAULT_PLAN, PLANS } from '../../plans.ts';
import { REFUSAL_REASONS } from '../../usage/refusals.ts';
import { FUNNEL_EVENTS } from '../../usage/funnel.ts';
import { DELIVERY_STATUSES } from '../../delivery/events.ts';
import { PULL_OUTCOMES, SKIP_REASONS } from '../../webhook/outcomes.ts';

/** Timestamps are ISO-8601 strings in UTC, as the API returns them. */
export const accounts = sqliteTable(
  'accounts',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    plan: text('plan', { enum: PLANS }).notNull().default(DEFAULT_PLAN),
    apiKey: text('api_key').notNull(),
    createdAt: text('created_at').notNull(),
    /**
     * Milliseconds since the epoch: session tokens issued before it are refused (sign-out
     * everywhere, a password change, an operator's reset).
     */
    tokensValidAfter: integer('tokens_valid_after').notNull().default(0),
    /**
     * The owner's caps (docs/api.md, "Owner limits"); null is no cap. On the account row,
     * so the widget's lookup of the key brings them at no extra cost.
     */
    loadsPerDay: integer('loads_per_day'),
    loadsPerDayPerDomain: integer('loads_per_day_per_domain'),
    pullsPerSecond: integer('pulls_per_second'),
    /** 1: pages may ask to register their origin (`register-domain`); 0: the owner turned it off. */
    registerDomain: integer('register_domain').notNull().default(1),
    /**
     * Goes up with every change of the account's results configs: the widget's load reads
     * it with the key's account and keeps the configs in memory while it stays the same.
     */
    resultsVersion: integer('results_version').notNull().default(0),
  },
  (table) => [
    uniqueIndex('accounts_email_unique').on(table.email),
    uniqueIndex('accounts_api_key_unique').on(table.apiKey),
  ],
);

export const domains = sqliteTable(
  'domains',
  {
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    origin: text('origin').notNull(),
    status: text('status', { enum: DOMAIN_STATUSES }).notNull(),
    createdAt: text('created_at').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.accountId, table.origin] }),
    index('domains_status_idx').on(table.accountId, table.status),
  ],
);

/** Widget loads per account and calendar month (UTC), `period` = "YYYY-MM". */
export const usage = sqliteTable(
  'usage',
  {
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    period: text('period').notNull(),
    loads: integer('loads').notNull().default(sql`0`),
  },
  (table) => [primaryKey({ columns: [table.accountId, table.period] })],
);

/**
 * Counted widget loads per account, UTC day ("YYYY-MM-DD"), calculator and page origin:
 * the history owners read in `GET /v1/usage`. Written with the monthly counts in one
 * flush; rows older than the retention window are pruned (docs/decisions.md).
 */
export const usageDaily = sqliteTable(
  'usage_daily',
  {
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    calcId: text('calc_id').notNull(),
    domain: text('domain').notNull(),
    loads: integer('loads').notNull().default(sql`0`),
  },
  (table) => [
    primaryKey({ columns: [table.accountId, table.day, table.calcId, table.domain] }),
    // Retention deletes by day across all accounts.
    index('usage_daily_day_idx').on(table.day),
  ],
);

/** Webhook pulls made for widget loads per account, UTC day, calculator and outcome. */
export const webhookDaily = sqliteTable(
  'webhook_daily',
  {
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    calcId: text('calc_id').notNull(),
    outcome: text('outcome', { enum: PULL_OUTCOMES }).notNull(),
    calls: integer('calls').notNull().default(sql`0`),
  },
  (table) => [
    primaryKey({ columns: [table.accountId, table.day, table.calcId, table.outcome] }),
    index('webhook_daily_day_idx').on(table.day),
  ],
);

/**
 * Widget calls with the account's valid key that were refused, per UTC day, calculator and
 * reason (the page's origin is not kept: strangers choose it). Flushed with usage, pruned
 * with it.
 */
export const refusedDaily = sqliteTable(
  'refused_daily',
  {
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    calcId: text('calc_id').notNull(),
    reason: text('reason', { enum: REFUSAL_REASONS }).notNull(),
    count: integer('count').notNull().default(sql`0`),
  },
  (table) => [
    primaryKey({ columns: [table.accountId, table.day, table.calcId, table.reason] }),
    index('refused_daily_day_idx').on(table.day),
  ],
);

/** Webhook pulls a load was due but that were skipped (no call made), per UTC day, calculator and reason. */
export const skippedDaily = sqliteTable(
  'skipped_daily',
  {
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    calcId: text('calc_id').notNull(),
    reason: text('reason', { enum: SKIP_REASONS }).notNull(),
    count: integer('count').notNull().default(sql`0`),
  },
  (table) => [
    primaryKey({ columns: [table.accountId, table.day, table.calcId, table.reason] }),
    index('skipped_daily_day_idx').on(table.day),
  ],
);

/**
 * Funnel steps (view, start, complete, submit) per account, UTC day, calculator, page origin
 * and step (docs/api.md, "Funnel"). Counts only: nothing about a visitor. Flushed with usage,
 * pruned with it.
 */
export const funnelDaily = sqliteTable(
  'funnel_daily',
  {
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    calcId: text('calc_id').notNull(),
    domain: text('domain').notNull(),
    event: text('event', { enum: FUNNEL_EVENTS }).notNull(),
    count: integer('count').notNull().default(sql`0`),
  },
  (table) => [
    primaryKey({ columns: [table.accountId, table.day, table.calcId, table.domain, table.event] }),
    index('funnel_daily_day_idx').on(table.day),
  ],
);

/**
 * Per-account, per-calculator widget configuration. Webhook header values are stored
 * encrypted (AES-256-GCM, key in the data directory), never in clear.
 */
export const widgetConfigs = sqliteTable(
  'widget_configs',
  {
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    calcId: text('calc_id').notNull(),
    webhookUrl: text('webhook_url'),
    /** `v1.<base64 iv|tag|ciphertext>` of the headers' JSON, or null when there are none. */
    webhookHeaders: text('webhook_headers'),
    /** JSON of the last fetch's outcome, flushed from memory in batches. */
    webhookStatus: text('webhook_status'),
    updatedAt: text('updated_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.accountId, table.calcId] })],
);

/**
 * Each account's signing secret for signed pulls and visitor context tokens (one row per
 * account), sealed like webhook header values. After a rotation the previous secret
 * stays valid until `previousValidUntil`.
 */
export const signingSecrets = sqliteTable('signing_secrets', {
  accountId: text('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  /** `v1.<base64 iv|tag|ciphertext>` of the secret. */
  secret: text('secret').notNull(),
  createdAt: text('created_at').notNull(),
  previousSecret: text('previous_secret'),
  previousValidUntil: text('previous_valid_until'),
});

/**
 * Calculators an owner defines (docs/calculators.md, "Your own calculators"): the draft
 * they edit (the definition's JSON, valid when saved) and the version widgets load.
 * `generation` is random, set when the calculator is created: with the version it names
 * one published definition, also across a delete and a re-create under the same id, so an
 * in-memory cache keyed by both never serves a deleted calculator's definition.
 */
export const customCalculators = sqliteTable(
  'custom_calculators',
  {
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    /** JSON of the draft's title (a text: a string or one per language), for the list. */
    title: text('title').notNull(),
    draft: text('draft').notNull(),
    /** The version widgets load; null until the first publish. Always the newest version. */
    publishedVersion: integer('published_version'),
    generation: text('generation').notNull(),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.accountId, table.id] })],
);

/** Each publish of a custom calculator: the definition's JSON as published; the newest 20 are kept. */
export const customCalculatorVersions = sqliteTable(
  'custom_calculator_versions',
  {
    accountId: text('account_id').notNull(),
    calculatorId: text('calculator_id').notNull(),
    version: integer('version').notNull(),
    definition: text('definition').notNull(),
    publishedAt: text('published_at').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.accountId, table.calculatorId, table.version] }),
    foreignKey({
      name: 'custom_calculator_versions_calculator_fk',
      columns: [table.accountId, table.calculatorId],
      foreignColumns: [customCalculators.accountId, customCalculators.id],
    }).onDelete('cascade'),
  ],
);

/**
 * The account's results endpoint (docs/results.md): where events are POSTed, signed with
 * its own secret (sealed like webhook header values). Disabled while `disabledReason` is
 * set; `failingSince` is the first failure since the last delivery.
 */
export const resultsEndpoints = sqliteTable('results_endpoints', {
  accountId: text('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  url: text('url').notNull(),
  /** JSON array of the event types it receives (`test` always). */
  events: text('events').notNull(),
  /** `v1.<base64 iv|tag|ciphertext>` of the `whsec_…` secret. */
  secret: text('secret').notNull(),
  previousSecret: text('previous_secret'),
  previousValidUntil: text('previous_valid_until'),
  disabledReason: text('disabled_reason'),
  failingSince: text('failing_since'),
  createdAt: text('created_at').notNull(),
  updatedAt: text('updated_at').notNull(),
});

/**
 * The delivery queue: one row per event, with its body as sent (the same bytes on every
 * attempt). Times that the queue compares are milliseconds since the epoch. An event is
 * in flight while `leaseUntil` lies ahead; `leaseOwner` names the server holding it.
 */
export const deliveryEvents = sqliteTable(
  'delivery_events',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => resultsEndpoints.accountId, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    payload: text('payload').notNull(),
    status: text('status', { enum: DELIVERY_STATUSES }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: integer('next_attempt_at').notNull(),
    leaseOwner: text('lease_owner'),
    leaseUntil: integer('lease_until'),
    createdAt: text('created_at').notNull(),
  },
  (table) => [
    index('delivery_events_due_idx').on(table.status, table.nextAttemptAt),
    index('delivery_events_account_idx').on(table.accountId, table.createdAt),
    // One endpoint's due events, claimed after each of its attempts.
    index('delivery_events_account_due_idx').on(table.accountId, table.status, table.nextAttemptAt),
  ],
);

/** One row per delivery attempt: what the endpoint answered (its first 1 KiB), never what was sent. */
export const deliveryAttempts = sqliteTable(
  'delivery_attempts',
  {
    eventId: text('event_id')
      .notNull()
      .references(() => deliveryEvents.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    accountId: text('account_id').notNull(),
    at: text('at').notNull(),
    outcome: text('outcome').notNull(),
    httpStatus: integer('http_status'),
    durationMs: integer('duration_ms').notNull(),
    response: text('response').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.eventId, table.attempt] }),
    index('delivery_attempts_account_idx').on(table.accountId, table.at),
  ],
);

/**
 * Whether visitors may send their result, per account and calculator (docs/results.md):
 * the config's JSON as saved. A change bumps `accounts.results_version` in the same write.
 */
export const resultsConfigs = sqliteTable(
  'results_configs',
  {
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    calcId: text('calc_id').notNull(),
    config: text('config').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.accountId, table.calcId] })],
);

/**
 * What visitors sent (docs/results.md, "What is stored"). JSON columns hold the objects
 * the API answers; `eventId` names the `result.submitted` event queued with it, deleted
 * with the result.
 */
export const results = sqliteTable(
  'results',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    calcId: text('calc_id').notNull(),
    domain: text('domain').notNull(),
    createdAt: text('created_at').notNull(),
    units: text('units').notNull(),
    inputs: text('inputs').notNull(),
    outputs: text('outputs').notNull(),
    contactEmail: text('contact_email'),
    contactName: text('contact_name'),
    visitor: text('visitor'),
    page: text('page'),
    utm: text('utm'),
    prefill: text('prefill'),
    consent: text('consent'),
    eventId: text('event_id'),
  },
  (table) => [
    // Newest first per account (lists and exports page by created_at, id).
    index('results_account_created_idx').on(table.accountId, table.createdAt, table.id),
    // Retention deletes by age across all accounts.
    index('results_created_idx').on(table.createdAt),
  ],
);

/** Submissions accepted per account and calendar month (UTC): the allowance's exact count. */
export const resultsMonthly = sqliteTable(
  'results_monthly',
  {
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    period: text('period').notNull(),
    submissions: integer('submissions').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.accountId, table.period] })],
);
