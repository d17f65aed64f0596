import { and, eq, sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import { accounts, resultsConfigs } from './sqlite/schema.ts';
import { writeGateOf } from './write-gate.ts';

/** An account's results configs (their saved JSON by calculator) as of one version of them. */
export interface ResultsConfigSnapshot {
  /** `accounts.results_version` read with the configs, in the same statement. */
  version: number;
  configs: { calcId: string; config: string }[];
}

/**
 * Persistence of results configs (docs/results.md). Every change bumps the account's
 * `results_version` in the same transaction, so the widget's load, which reads that column
 * with the key's account, knows at once on every server whether the configs it holds in
 * memory are still current.
 */
export function createResultsConfigStore(db: Db) {
  const gate = writeGateOf(db.$client);
  // The account's version and its configs in one statement: a snapshot is never labelled
  // with a version newer than its configs.
  const snapshot = db.$client.query<{ version: number; calcId: string | null; config: string | null }, { id: string }>(
    `SELECT a.results_version AS version, c.calc_id AS calcId, c.config AS config
     FROM accounts a LEFT JOIN results_configs c ON c.account_id = a.id WHERE a.id = $id`,
  );
  const one = db
    .select()
    .from(resultsConfigs)
    .where(
      and(
        eq(resultsConfigs.accountId, sql.placeholder('accountId')),
        eq(resultsConfigs.calcId, sql.placeholder('calcId')),
      ),
    )
    .prepare();

  return {
    /**
     * Every config of the account with their version; undefined for an account that is gone.
     * Answered without a promise (a load that meets a new version waits for it); the
     * PostgreSQL store answers one.
     */
    snapshot: (accountId: string): ResultsConfigSnapshot | undefined | Promise<ResultsConfigSnapshot | undefined> => {
      const rows = snapshot.all({ id: accountId });
      const [first] = rows;
      if (!first) return undefined;
      return {
        version: first.version,
        configs: rows.flatMap((r) =>
          r.calcId === null || r.config === null ? [] : [{ calcId: r.calcId, config: r.config }],
        ),
      };
    },

    /** The saved config's JSON of one calculator, or undefined. */
    find: async (accountId: string, calcId: string): Promise<string | undefined> =>
      one.get({ accountId, calcId })?.config,

    /** Saves a calculator's config and bumps the account's version, in one transaction. */
    save: (accountId: string, calcId: string, config: string, updatedAt: string): Promise<void> =>
      gate.write(() =>
        db.transaction((tx) => {
          tx.insert(resultsConfigs)
            .values({ accountId, calcId, config, updatedAt })
            .onConflictDoUpdate({
              target: [resultsConfigs.accountId, resultsConfigs.calcId],
              set: { config, updatedAt },
            })
            .run();
          tx.update(accounts)
            .set({ resultsVersion: sql`${accounts.resultsVersion} + 1` })
            .where(eq(accounts.id, accountId))
            .run();
        }),
      ),
  };
}

export type ResultsConfigStore = ReturnType<typeof createResultsConfigStore>;
