import { and, eq, sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import { widgetConfigs } from './schema.ts';
import { writeGateOf } from './write-gate.ts';

export type WidgetConfigRow = typeof widgetConfigs.$inferSelect;

/** Persistence of widget configs; the lookup on every widget load is prepared once. */
export function createWidgetConfigStore(db: Db) {
  const gate = writeGateOf(db.$client);
  const byKey = db
    .select()
    .from(widgetConfigs)
    .where(
      and(
        eq(widgetConfigs.accountId, sql.placeholder('accountId')),
        eq(widgetConfigs.calcId, sql.placeholder('calcId')),
      ),
    )
    .prepare();

  return {
    find: async (accountId: string, calcId: string): Promise<WidgetConfigRow | undefined> =>
      byKey.get({ accountId, calcId }),

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

    /** Writes the latest fetch outcomes in one transaction. */
    saveStatuses: async (statuses: { accountId: string; calcId: string; status: string }[]): Promise<void> => {
      if (statuses.length === 0) return;
      await gate.write(() =>
        db.transaction((tx) => {
          for (const s of statuses) {
            tx.update(widgetConfigs)
              .set({ webhookStatus: s.status })
              .where(and(eq(widgetConfigs.accountId, s.accountId), eq(widgetConfigs.calcId, s.calcId)))
              .run();
          }
        }),
      );
    },
  };
}

export type WidgetConfigStore = ReturnType<typeof createWidgetConfigStore>;
