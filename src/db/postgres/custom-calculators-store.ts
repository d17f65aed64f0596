import { and, asc, desc, eq, lte, sql } from 'drizzle-orm';
import type { SQL } from 'bun';
import {
  type CustomCalculatorsStore,
  type PublishedLookup,
  publishedSql,
  statusColumn,
} from '../custom-calculators-store.ts';
import type { PgDb } from './client.ts';
import { customCalculators as c, customCalculatorVersions as v, widgetConfigs } from './schema.ts';

/** The advisory lock (with the account's hash) that serialises one account's creations: "cclc". */
const CREATE_LOCK = 0x63636c63;

/**
 * The PostgreSQL side of the custom calculators store. `client` is the pool the widget's
 * reads run on (`OpenPostgres.widget`): the resolver's point read goes there.
 */
export function createPgCustomCalculatorsStore(db: PgDb, client: SQL = db.$client): CustomCalculatorsStore {
  const status = statusColumn({ publishedVersion: c.publishedVersion, published: v.definition, draft: c.draft });
  const joined = and(eq(v.accountId, c.accountId), eq(v.calculatorId, c.id), eq(v.version, c.publishedVersion));
  const which = (accountId: string, id: string) => and(eq(c.accountId, accountId), eq(c.id, id));
  const publishedRead = publishedSql(['$1', '$2', '$3', '$4']);

  return {
    list: async (accountId) =>
      db
        .select({ id: c.id, title: c.title, status, publishedVersion: c.publishedVersion, updatedAt: c.updatedAt })
        .from(c)
        .leftJoin(v, joined)
        .where(eq(c.accountId, accountId))
        .orderBy(asc(c.createdAt), asc(c.id)),

    find: async (accountId, id) =>
      (
        await db
          .select({ row: c, published: v.definition, status })
          .from(c)
          .leftJoin(v, joined)
          .where(which(accountId, id))
      )[0],

    // Creations of one account take turns on every server (the count, then the insert);
    // other accounts' do not wait.
    create: (row, limit) =>
      db.transaction(async (tx) => {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(${CREATE_LOCK}, hashtext(${row.accountId}))`);
        const [taken] = await tx.select({ id: c.id }).from(c).where(which(row.accountId, row.id));
        if (taken) return 'exists';
        const [count] = await tx
          .select({ n: sql<number>`count(*)::int` })
          .from(c)
          .where(eq(c.accountId, row.accountId));
        if ((count?.n ?? 0) >= limit) return 'limit';
        await tx.insert(c).values(row);
        return 'created';
      }),

    saveDraft: async (accountId, id, draft) =>
      (await db.update(c).set(draft).where(which(accountId, id)).returning({ id: c.id })).length === 1,

    publish: (accountId, id, definition, at, keep) =>
      db.transaction(async (tx) => {
        // The row lock makes concurrent publishes of one calculator take turns.
        const [locked] = await tx
          .select({ version: c.publishedVersion })
          .from(c)
          .where(which(accountId, id))
          .for('update');
        if (!locked) return undefined;
        if (locked.version !== null) {
          const [current] = await tx
            .select({ definition: v.definition })
            .from(v)
            .where(and(eq(v.accountId, accountId), eq(v.calculatorId, id), eq(v.version, locked.version)));
          if (current?.definition === definition) return { version: locked.version, created: false };
        }
        const version = (locked.version ?? 0) + 1;
        await tx.insert(v).values({ accountId, calculatorId: id, version, definition, publishedAt: at });
        await tx.update(c).set({ publishedVersion: version, updatedAt: at }).where(which(accountId, id));
        await tx
          .delete(v)
          .where(and(eq(v.accountId, accountId), eq(v.calculatorId, id), lte(v.version, version - keep)));
        return { version, created: true };
      }),

    versions: async (accountId, id) =>
      db
        .select({ version: v.version, publishedAt: v.publishedAt })
        .from(v)
        .where(and(eq(v.accountId, accountId), eq(v.calculatorId, id)))
        .orderBy(desc(v.version)),

    version: async (accountId, id, version) =>
      (
        await db
          .select({ definition: v.definition })
          .from(v)
          .where(and(eq(v.accountId, accountId), eq(v.calculatorId, id), eq(v.version, version)))
      )[0]?.definition,

    delete: (accountId, id) =>
      db.transaction(async (tx) => {
        const deleted = (await tx.delete(c).where(which(accountId, id)).returning({ id: c.id })).length === 1;
        if (deleted)
          await tx
            .delete(widgetConfigs)
            .where(and(eq(widgetConfigs.accountId, accountId), eq(widgetConfigs.calcId, id)));
        return deleted;
      }),

    ids: async (accountId) =>
      (await db.select({ id: c.id }).from(c).where(eq(c.accountId, accountId))).map((row) => row.id),

    // Straight through Bun's client, as the accounts store's widget lookup: prepared once
    // per connection, no drizzle layers on the load path.
    published: (accountId, id, known) =>
      client
        .unsafe(publishedRead, [accountId, id, known?.generation ?? '', known?.version ?? -1])
        .then(([row]: PublishedLookup[]) => row),
  };
}
