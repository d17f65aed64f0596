import { and, eq, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import { selectList } from './columns.ts';
import { widgetConfigs } from './sqlite/schema.ts';
import { writeGateOf } from './write-gate.ts';

export type WidgetConfigRow = typeof widgetConfigs.$inferSelect;

/** One last webhook outcome to store: `status` is its JSON, `at` its time (ISO-8601, UTC). */
interface StatusWrite {
  accountId: string;
  calcId: string;
  status: string;
  at: string;
}

/** Persistence of widget configs; the lookup on every widget load is prepared once. */
export function createWidgetConfigStore(db: Db) {
  const gate = writeGateOf(db.$client);
  const byKey = db.$client.query<WidgetConfigRow, { accountId: string; calcId: string }>(
    `SELECT ${selectList(widgetConfigs)} FROM widget_configs WHERE account_id = $accountId AND calc_id = $calcId`,
  );

  return {
    /** Answered without a promise: every Extra load reads it (the PostgreSQL store answers one). */
    find: (accountId: string, calcId: string): WidgetConfigRow | undefined | Promise<WidgetConfigRow | undefined> =>
      byKey.get({ accountId, calcId }) ?? undefined,

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
