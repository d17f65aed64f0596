import { sql } from 'drizzle-orm';
import { bigint, foreignKey, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { DOMAIN_STATUSES } from '../../domains/status.ts';
import { DEFAULT_PLAN, PLANS } from '../../plans.ts';
import { REFUSAL_REASONS } from '../../usage/refusals.ts';
import { FUNNEL_EVENTS } from '../../usage/funnel.ts';
import { DELIVERY_STATUSES } from '../../delivery/events.ts';
import { PULL_OUTCOMES, SKIP_REASONS } from '../../webhook/outcomes.ts';

/**
 * The PostgreSQL side of `src/db/sqlite/schema.ts`: the same tables, columns and keys, so rows
 * copy across and both sides answer the same row shapes. Timestamps are ISO-8601 strings
 * in UTC here too.
 */
export const accounts = pgTable(
  'accounts',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    plan: text('plan', { enum: PLANS }).notNull().default(DEFAULT_PLAN),
    apiKey: text('api_key').notNull(),
    createdAt: text('created_at').notNull(),
    /** Milliseconds since the epoch: more than a 32-bit integer holds. */
    tokensValidAfter: bigint('tokens_valid_after', { mode: 'number' }).notNull().default(0),
    loadsPerDay: integer('loads_per_day'),
    loadsPerDayPerDomain: integer('loads_per_day_per_domain'),
    pullsPerSecond: integer('pulls_per_second'),
    registerDomain: integer('register_domain').notNull().default(1),
    resultsVersion: integer('results_version').notNull().default(0),
  },
  (table) => [
    uniqueIndex('accounts_email_unique').on(table.email),
    uniqueIndex('accounts_api_key_unique').on(table.apiKey),
  ],
);

export const domains = pgTable(
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

export const usage = pgTable(
  'usage',
  {
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    period: text('period').notNull(),
    loads: bigint('loads', { mode: 'number' }).notNull().default(sql`0`),
  },
  (table) => [primaryKey({ columns: [table.accountId, table.period] })],
);

export const usageDaily = pgTable(
  'usage_daily',
  {
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    calcId: text('calc_id').notNull(),
    domain: text('domain').notNull(),
    loads: bigint('loads', { mode: 'number' }).notNull().default(sql`0`),
  },
  (table) => [
    primaryKey({ columns: [table.accountId, table.day, table.calcId, table.domain] }),
    index('usage_daily_day_idx').on(table.day),
  ],
);

export const webhookDaily = pgTable(
  'webhook_daily',
  {
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    calcId: text('calc_id').notNull(),
    outcome: text('outcome', { enum: PULL_OUTCOMES }).notNull(),
    calls: bigint('calls', { mode: 'number' }).notNull().default(sql`0`),
  },
  (table) => [
    primaryKey({ columns: [table.accountId, table.day, table.calcId, table.outcome] }),
    index('webhook_daily_day_idx').on(table.day),
  ],
);

export const refusedDaily = pgTable(
  'refused_daily',
  {
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    calcId: text('calc_id').notNull(),
    reason: text('reason', { enum: REFUSAL_REASONS }).notNull(),
    count: bigint('count', { mode: 'number' }).notNull().default(sql`0`),
  },
  (table) => [
    primaryKey({ columns: [table.accountId, table.day, table.calcId, table.reason] }),
    index('refused_daily_day_idx').on(table.day),
  ],
);

export const skippedDaily = pgTable(
  'skipped_daily',
  {
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    calcId: text('calc_id').notNull(),
    reason: text('reason', { enum: SKIP_REASONS }).notNull(),
    count: bigint('count', { mode: 'number' }).notNull().default(sql`0`),
  },
  (table) => [
    primaryKey({ columns: [table.accountId, table.day, table.calcId, table.reason] }),
    index('skipped_daily_day_idx').on(table.day),
  ],
);

export const funnelDaily = pgTable(
  'funnel_daily',
  {
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    calcId: text('calc_id').notNull(),
    domain: text('domain').notNull(),
    event: text('event', { enum: FUNNEL_EVENTS }).notNull(),
    count: bigint('count', { mode: 'number' }).notNull().default(sql`0`),
  },
  (table) => [
    primaryKey({ columns: [table.accountId, table.day, table.calcId, table.domain, table.event] }),
    index('funnel_daily_day_idx').on(table.day),
  ],
);

export const widgetConfigs = pgTable(
  'widget_configs',
  {
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    calcId: text('calc_id').notNull(),
    webhookUrl: text('webhook_url'),
    webhookHeaders: text('webhook_headers'),
    webhookStatus: text('webhook_status'),
    updatedAt: text('updated_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.accountId, table.calcId] })],
);

export const signingSecrets = pgTable('signing_secrets', {
  accountId: text('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  secret: text('secret').notNull(),
  createdAt: text('created_at').notNull(),
  previousSecret: text('previous_secret'),
  previousValidUntil: text('previous_valid_until'),
});

/**
 * Failed sign-ins in the current window per key (an address group, or an email from an
 * address group), shared by every server on the database. PostgreSQL only: one SQLite
 * server keeps them in memory, and they are worth nothing once their window ends.
 */
export const loginFailures = pgTable(
  'login_failures',
  {
    key: text('key').primaryKey(),
    /** Milliseconds since the epoch at which this count's window ends. */
    endsAt: bigint('ends_at', { mode: 'number' }).notNull(),
    failures: integer('failures').notNull(),
  },
  (table) => [index('login_failures_ends_at_idx').on(table.endsAt)],
);

export const customCalculators = pgTable(
  'custom_calculators',
  {
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    title: text('title').notNull(),
    draft: text('draft').notNull(),
    publishedVersion: integer('published_version'),
    generation: text('generation').notNull(),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.accountId, table.id] })],
);

export const customCalculatorVersions = pgTable(
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

export const resultsEndpoints = pgTable('results_endpoints', {
  accountId: text('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  url: text('url').notNull(),
  events: text('events').notNull(),
  secret: text('secret').notNull(),
  previousSecret: text('previous_secret'),
  previousValidUntil: text('previous_valid_until'),
  disabledReason: text('disabled_reason'),
  failingSince: text('failing_since'),
  createdAt: text('created_at').notNull(),
  updatedAt: text('updated_at').notNull(),
});

export const deliveryEvents = pgTable(
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
    /** Milliseconds since the epoch: more than a 32-bit integer holds. */
    nextAttemptAt: bigint('next_attempt_at', { mode: 'number' }).notNull(),
    leaseOwner: text('lease_owner'),
    leaseUntil: bigint('lease_until', { mode: 'number' }),
    createdAt: text('created_at').notNull(),
  },
  (table) => [
    index('delivery_events_due_idx').on(table.status, table.nextAttemptAt),
    index('delivery_events_account_idx').on(table.accountId, table.createdAt),
    // One endpoint's due events, claimed after each of its attempts.
    index('delivery_events_account_due_idx').on(table.accountId, table.status, table.nextAttemptAt),
  ],
);

export const deliveryAttempts = pgTable(
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

export const resultsConfigs = pgTable(
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

export const results = pgTable(
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
    index('results_account_created_idx').on(table.accountId, table.createdAt, table.id),
    index('results_created_idx').on(table.createdAt),
  ],
);

export const resultsMonthly = pgTable(
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
