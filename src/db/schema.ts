import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

/** Timestamps are ISO-8601 strings in UTC, as the API returns them. */
export const accounts = sqliteTable(
  'accounts',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    plan: text('plan', { enum: ['free', 'base', 'extra'] }).notNull().default('free'),
    apiKey: text('api_key').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (table) => [uniqueIndex('accounts_email_unique').on(table.email), uniqueIndex('accounts_api_key_unique').on(table.apiKey)],
);

export const domains = sqliteTable(
  'domains',
  {
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    origin: text('origin').notNull(),
    status: text('status', { enum: ['active', 'pending'] }).notNull(),
    createdAt: text('created_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.accountId, table.origin] }), index('domains_status_idx').on(table.accountId, table.status)],
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
