import { getTableName, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { getTableConfig, type SQLiteColumn, type SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { OpenDatabase } from '../client.ts';
import * as lite from '../sqlite/schema.ts';
import type { PgDb } from './client.ts';
import * as pg from './schema.ts';

/**
 * Every SQLite table with its PostgreSQL twin, parents before children (foreign keys).
 * A table added to the SQLite schema and not here makes the copy refuse to start.
 */
const TABLES: readonly [SQLiteTable, PgTable][] = [
  [lite.accounts, pg.accounts],
  [lite.signingSecrets, pg.signingSecrets],
  [lite.domains, pg.domains],
  [lite.widgetConfigs, pg.widgetConfigs],
  [lite.usage, pg.usage],
  [lite.usageDaily, pg.usageDaily],
  [lite.webhookDaily, pg.webhookDaily],
  [lite.customCalculators, pg.customCalculators],
  [lite.customCalculatorVersions, pg.customCalculatorVersions],
  [lite.refusedDaily, pg.refusedDaily],
  [lite.skippedDaily, pg.skippedDaily],
  [lite.resultsEndpoints, pg.resultsEndpoints],
  [lite.deliveryEvents, pg.deliveryEvents],
  [lite.deliveryAttempts, pg.deliveryAttempts],
  [lite.resultsConfigs, pg.resultsConfigs],
  [lite.results, pg.results],
  [lite.resultsMonthly, pg.resultsMonthly],
  [lite.funnelDaily, pg.funnelDaily],
];

/** Rows read and written per statement: well under PostgreSQL's 65,535 parameters. */
const BATCH = 1000;

export interface CopyProgress {
  table: string;
  copied: number;
  total: number;
}

export class CopyRefused extends Error {}

/**
 * Copies every table of an opened SQLite store into an empty PostgreSQL database in one
 * PostgreSQL transaction: a failure or a count that does not match leaves the target as
 * empty as it was. Values go across as they are (webhook header values stay encrypted
 * with the data directory's webhook key). Answers the row count per table.
 */
export async function copySqliteToPostgres(
  source: OpenDatabase,
  target: PgDb,
  progress: (step: CopyProgress) => void = () => {},
): Promise<Record<string, number>> {
  const known = new Set(TABLES.map(([table]) => getTableName(table)));
  const present = source.sqlite
    .query<{ name: string }, []>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%'",
    )
    .all()
    .map((r) => r.name);
  const unknown = present.filter((name) => !known.has(name));
  if (unknown.length > 0) throw new Error(`no PostgreSQL copy is defined for table(s) ${unknown.join(', ')}`);

  const counts: Record<string, number> = {};
  // One read transaction: a consistent snapshot even while a server writes (WAL).
  source.sqlite.run('BEGIN');
  try {
    await target.transaction(async (tx) => {
      for (const [, table] of TABLES) {
        const [row] = await tx.select({ n: sql<number>`count(*)::int` }).from(table);
        if ((row?.n ?? 0) > 0)
          throw new CopyRefused(
            `The target database is not empty (table ${getTableName(table)} has rows): migrate into an empty database only.`,
          );
      }
      for (const [from, to] of TABLES) {
        const name = getTableName(from);
        const total = source.sqlite.query<{ n: number }, []>(`SELECT count(*) AS n FROM "${name}"`).get()?.n ?? 0;
        const order = primaryKeyOf(from);
        progress({ table: name, copied: 0, total });
        for (let offset = 0; offset < total; offset += BATCH) {
          const rows = await source.db
            .select()
            .from(from)
            .orderBy(...order)
            .limit(BATCH)
            .offset(offset);
          if (rows.length > 0) await tx.insert(to).values(rows);
          progress({ table: name, copied: Math.min(total, offset + rows.length), total });
        }
        const [copied] = await tx.select({ n: sql<number>`count(*)::int` }).from(to);
        if ((copied?.n ?? 0) !== total)
          throw new Error(`${name}: ${total} rows in SQLite but ${copied?.n ?? 0} in PostgreSQL; nothing was kept`);
        counts[name] = total;
      }
    });
  } finally {
    source.sqlite.run('COMMIT');
  }
  return counts;
}

/** The primary key's columns: a stable order for paging, also on WITHOUT ROWID tables. */
function primaryKeyOf(table: SQLiteTable): SQLiteColumn[] {
  const config = getTableConfig(table);
  const single = config.columns.filter((c) => c.primary);
  return single.length > 0 ? single : (config.primaryKeys[0]?.columns ?? []);
}
