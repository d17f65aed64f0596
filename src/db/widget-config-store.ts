import { and, eq, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import { selectList } from './columns.ts';
import { widgetConfigs } from './sqlite/schema.ts';
import { writeGateOf } from './write-gate.ts';
import { dataVersionOf } from './data-version.ts';

export type WidgetConfigRow = typeof widgetConfigs.$inferSelect;

/** One last webhook outcome to store: `status` is its JSON, `at` its time (ISO-8601, UTC). */
interface StatusWrite {
  accountId: string;
  calcId: string;
  status: string;
  at: string;
}

/** Configs held in memory at most; past it they are read again as loads ask for them. */
const MAX_HELD = 10_000;

/** Persistence of widget configs; the lookup on every widget load is prepared once. */
export function createWidgetConfigStore(db: Db) {
  const gate = writeGateOf(db.$client);
  const byKey = db.$client.query<WidgetConfigRow, { accountId: string; calcId: string }>(
    `SELECT ${selectList(widgetConfigs)} FROM widget_configs WHERE account_id = $accountId AND calc_id = $calcId`,
  );
  // Every Extra load asks for its config, most of them for one that has not changed: a row
  // read under the data version that stands now is current (./data-version.ts), and is
  // answered from memory. Any commit to the file (a save here or on another server, a
  // flush) changes the version, and the next load reads the row again.
  const dataVersion = dataVersionOf(db.$client);
  const held = new Map<string, { version: number; row: WidgetConfigRow | undefined }>();

  return {
    /**
     * Answered without a promise: every Extra load reads it (the PostgreSQL store answers
     * one). The row is shared between callers: read it, never change it.
     */
    find: (accountId: string, calcId: string): WidgetConfigRow | undefined | Promise<WidgetConfigRow | undefined> => {
      // Neither part holds a line break: account ids are generated, calculator ids a pattern.
      const key = `${accountId}\n${calcId}`;
      const version = dataVersion();
      const entry = held.get(key);
      if (entry?.version === version) return entry.row;
      const row = byKey.get({ accountId, calcId }) ?? undefined;
      if (held.size >= MAX_HELD) held.clear();
      held.set(key, { version, row });
      return row;
    },

    /** Saves the webhook (or its removal, with nulls); the last status starts over. */
    saveWebhook: (row: Omit<WidgetConfigRow, 'webhookStatus'>): Promise<void> =>
      gate.write(() => {
        db.insert(widgetConfigs)
          .values({ ...row, webhookStatus: null })
          .onConflictDoUpdate({
            target: [widgetConfigs.accountId, widgetConfigs.calcId],
            set: {
              webhookUrl: row.webhookUrl,
              webhookHeaders: row.webhookHeaders,
              webhookStatus: null,
              updatedAt: row.updatedAt,
            },
          })
          .run();
      }),

    /**
     * Writes fetch outcomes in one transaction, each only over an older one (by `at`, an
     * ISO-8601 UTC time): servers sharing a database flush in any order, the newest stays.
     * Never one older than the webhook's last save: it was about the webhook before.
     */
    saveStatuses: async (statuses: StatusWrite[]): Promise<void> => {
      if (statuses.length === 0) return;
      await gate.write(() =>
        db.transaction((tx) => {
          for (const s of statuses) {
            tx.update(widgetConfigs)
              .set({ webhookStatus: s.status })
              .where(
                and(
                  eq(widgetConfigs.accountId, s.accountId),
                  eq(widgetConfigs.calcId, s.calcId),
                  lte(widgetConfigs.updatedAt, s.at),
                  or(
                    isNull(widgetConfigs.webhookStatus),
                    sql`json_extract(${widgetConfigs.webhookStatus}, '$.at') < ${s.at}`,
                  ),
                ),
              )
              .run();
          }
        }),
      );
    },
  };
}

export type WidgetConfigStore = ReturnType<typeof createWidgetConfigStore>;
