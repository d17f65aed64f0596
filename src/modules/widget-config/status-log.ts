import type { WidgetConfigStore } from '../../db/widget-config-store.ts';
import type { Static } from '@sinclair/typebox';
import type { WebhookStatus as WebhookStatusModel } from './model.ts';

export type WebhookStatus = Static<typeof WebhookStatusModel>;

const key = (accountId: string, calcId: string) => `${accountId}\u0000${calcId}`;

/**
 * The last webhook outcome per account and calculator, for owners' diagnostics. Kept in
 * memory and written in batches, so a widget load never waits for a database write.
 */
export function createStatusLog(store: WidgetConfigStore) {
  const latest = new Map<string, WebhookStatus>();
  const dirty = new Set<string>();
  // When each webhook was last saved or removed: a pull that started earlier was about
  // the old webhook and must not report on the new one.
  const changedAt = new Map<string, number>();

  return {
    /** `startedAt` is `performance.now()` when the pull began. */
    record(accountId: string, calcId: string, status: WebhookStatus, startedAt: number): void {
      const k = key(accountId, calcId);
      if ((changedAt.get(k) ?? -1) >= startedAt) return;
      latest.set(k, status);
      dirty.add(k);
    },

    /**
     * The newest outcome (by `at`) of the one in memory and the one stored: servers that
     * share a database each keep their own, and another one's may be newer. One older than
     * the webhook's last save (`savedAt`, maybe on another server) was about the one before.
     */
    get(accountId: string, calcId: string, stored: string | null | undefined, savedAt: string): WebhookStatus | null {
      const held = latest.get(key(accountId, calcId));
      const inMemory = held && held.at >= savedAt ? held : null;
      const saved = parseStatus(stored);
      if (!inMemory || !saved) return inMemory ?? saved;
      return Date.parse(saved.at) > Date.parse(inMemory.at) ? saved : inMemory;
    },

    /** Forgets an outcome when the webhook is saved anew or removed. */
    clear(accountId: string, calcId: string): void {
      const k = key(accountId, calcId);
      latest.delete(k);
      dirty.delete(k);
      changedAt.set(k, performance.now());
    },

    async flush(): Promise<void> {
      if (dirty.size === 0) return;
      const rows = [...dirty].map((k) => {
        const [accountId = '', calcId = ''] = k.split('\u0000');
        const saved = latest.get(k) as WebhookStatus;
        return { accountId, calcId, status: JSON.stringify(saved), at: saved.at, saved };
      });
      dirty.clear();
      try {
        await store.saveStatuses(rows.map(({ accountId, calcId, status, at }) => ({ accountId, calcId, status, at })));
      } catch (error) {
        // Not written: the ones no newer outcome replaced meanwhile wait for the next flush.
        for (const row of rows) {
          const k = key(row.accountId, row.calcId);
          if (latest.get(k) === row.saved) dirty.add(k);
        }
        throw error;
      }
      // Written; keep memory bounded by dropping those no newer outcome replaced.
      for (const row of rows) {
        const k = key(row.accountId, row.calcId);
        if (latest.get(k) === row.saved && !dirty.has(k)) latest.delete(k);
      }
    },
  };
}

function parseStatus(stored: string | null | undefined): WebhookStatus | null {
  if (!stored) return null;
  try {
    return JSON.parse(stored) as WebhookStatus;
  } catch {
    return null;
  }
}

export type StatusLog = ReturnType<typeof createStatusLog>;
