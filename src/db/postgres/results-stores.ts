import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { SQL } from 'bun';
import type { ResultsConfigStore } from '../results-config-store.ts';
import {
  newestFirst,
  PRUNE_BATCH,
  type ResultKey,
  type ResultsStore,
  resultsWhere,
  type SubmitOutcome,
} from '../results-store.ts';
import { type PgDb, rowsOf } from './client.ts';
import { addPgEventIn } from './delivery-stores.ts';
import { accounts, deliveryEvents, results, resultsConfigs, resultsMonthly } from './schema.ts';

/**
 * The PostgreSQL side of the results store. A submission's count, row and event commit
 * together; the month's count is one conditional upsert, which PostgreSQL serialises per
 * account and month across every server, so the allowance is exact.
 */
export function createPgResultsStore(db: PgDb): ResultsStore {
  const keysOf = (column: 'inputs' | 'outputs', kind: ResultKey['kind'], where: ReturnType<typeof resultsWhere>) =>
    sql`SELECT DISTINCT ${results.calcId} AS "calcId", ${kind}::text AS kind, k AS key
        FROM ${results}, json_object_keys(${sql.identifier(column)}::json) k WHERE ${where}`;
  return {
    submit: async (row, event, allowance, now) => {
      if (allowance.limit <= 0) return { stored: false };
      return db.transaction(async (tx): Promise<SubmitOutcome> => {
        const counted = rowsOf(
          await tx.execute(
            sql`INSERT INTO results_monthly (account_id, period, submissions) VALUES (${row.accountId}, ${allowance.period}, 1)
              ON CONFLICT (account_id, period) DO UPDATE SET submissions = results_monthly.submissions + 1
              WHERE results_monthly.submissions < ${allowance.limit}
              RETURNING submissions`,
          ),
        );
        if (counted.length === 0) return { stored: false };
        const eventQueued = event !== null && (await addPgEventIn(tx, event, now));
        await tx.insert(results).values({ ...row, eventId: eventQueued ? (event?.id ?? null) : null });
        return { stored: true, eventQueued };
      });
    },
    list: async (accountId, filter, limit, cursor) =>
      db
        .select()
        .from(results)
        .where(resultsWhere(results, accountId, filter, cursor))
        .orderBy(...newestFirst(results))
        .limit(limit),
    find: async (accountId, id) =>
      (
        await db
          .select()
          .from(results)
          .where(and(eq(results.accountId, accountId), eq(results.id, id)))
      )[0],
    remove: async (accountId, id) =>
      db.transaction(async (tx) => {
        const [gone] = await tx
          .delete(results)
          .where(and(eq(results.accountId, accountId), eq(results.id, id)))
          .returning({ eventId: results.eventId });
        if (!gone) return false;
        if (gone.eventId !== null) await tx.delete(deliveryEvents).where(eq(deliveryEvents.id, gone.eventId));
        return true;
      }),
    keys: async (accountId, filter) => {
      const where = resultsWhere(results, accountId, filter);
      return rowsOf<ResultKey>(
        await db.execute(sql`${keysOf('inputs', 'input', where)} UNION ${keysOf('outputs', 'output', where)}`),
      );
    },
    submissions: async (accountId, period) =>
      (
        await db
          .select({ n: resultsMonthly.submissions })
          .from(resultsMonthly)
          .where(and(eq(resultsMonthly.accountId, accountId), eq(resultsMonthly.period, period)))
      )[0]?.n ?? 0,
    prune: async (before, beforePeriod) => {
      let pruned = 0;
      for (;;) {
        const batch = await db.transaction(async (tx) => {
          const ids = (
            await tx.select({ id: results.id }).from(results).where(lt(results.createdAt, before)).limit(PRUNE_BATCH)
          ).map((r) => r.id);
          if (ids.length === 0) return 0;
          const events = tx.select({ id: results.eventId }).from(results).where(inArray(results.id, ids));
          await tx.delete(deliveryEvents).where(inArray(deliveryEvents.id, events));
          await tx.delete(results).where(inArray(results.id, ids));
          return ids.length;
        });
        pruned += batch;
        if (batch < PRUNE_BATCH) break;
      }
      await db.delete(resultsMonthly).where(lt(resultsMonthly.period, beforePeriod));
      return pruned;
    },
  };
}

/** `client` is the pool the widget's reads run on (`OpenPostgres.widget`): a load's snapshot read goes there. */
export function createPgResultsConfigStore(db: PgDb, client: SQL = db.$client): ResultsConfigStore {
  const snapshot = `SELECT a.results_version AS version, c.calc_id AS "calcId", c.config AS config
    FROM accounts a LEFT JOIN results_configs c ON c.account_id = a.id WHERE a.id = $1`;
  return {
    snapshot: (accountId) =>
      client
        .unsafe(snapshot, [accountId])
        .then((rows: { version: number; calcId: string | null; config: string | null }[]) => {
          const [first] = rows;
          if (!first) return undefined;
          return {
            version: Number(first.version),
            configs: rows.flatMap((r) =>
              r.calcId === null || r.config === null ? [] : [{ calcId: r.calcId, config: r.config }],
            ),
          };
        }),
    find: async (accountId, calcId) =>
      (
        await db
          .select({ config: resultsConfigs.config })
          .from(resultsConfigs)
          .where(and(eq(resultsConfigs.accountId, accountId), eq(resultsConfigs.calcId, calcId)))
      )[0]?.config,
    save: async (accountId, calcId, config, updatedAt) => {
      await db.transaction(async (tx) => {
        await tx
          .insert(resultsConfigs)
          .values({ accountId, calcId, config, updatedAt })
          .onConflictDoUpdate({
            target: [resultsConfigs.accountId, resultsConfigs.calcId],
            set: { config, updatedAt },
          });
        await tx
          .update(accounts)
          .set({ resultsVersion: sql`${accounts.resultsVersion} + 1` })
          .where(eq(accounts.id, accountId));
      });
    },
  };
}
