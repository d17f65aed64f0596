import { eq, sql } from 'drizzle-orm';
import type { Plan } from '../config.ts';
import type { Db } from './client.ts';
import { accounts, usage } from './schema.ts';

export type AccountRow = typeof accounts.$inferSelect;

/** Persistence of accounts; hot lookups are prepared once per database. */
export function createAccountsStore(db: Db) {
  // Behind every widget call: a plain prepared statement, as drizzle's row mapping costs
  // a fifth of the lookup. The column aliases give the same row shape as drizzle's.
  const byApiKey = db.$client.query<AccountRow, { apiKey: string }>(
    'SELECT id, email, password_hash AS passwordHash, plan, api_key AS apiKey, created_at AS createdAt FROM accounts WHERE api_key = $apiKey',
  );
  const byId = db
    .select()
    .from(accounts)
    .where(eq(accounts.id, sql.placeholder('id')))
    .prepare();
  const byEmail = db
    .select()
    .from(accounts)
    .where(eq(accounts.email, sql.placeholder('email')))
    .prepare();

  return {
    findByApiKey: (apiKey: string): AccountRow | undefined => byApiKey.get({ apiKey }) ?? undefined,
    findById: (id: string): AccountRow | undefined => byId.get({ id }),
    findByEmail: (email: string): AccountRow | undefined => byEmail.get({ email }),

    /** Returns false when the email is taken (the unique index decides, not a prior read). */
    insert(row: AccountRow): boolean {
      return db.insert(accounts).values(row).onConflictDoNothing().returning({ id: accounts.id }).all().length === 1;
    },

    setPlan(id: string, plan: Plan): void {
      db.update(accounts).set({ plan }).where(eq(accounts.id, id)).run();
    },

    setApiKey(id: string, apiKey: string): void {
      db.update(accounts).set({ apiKey }).where(eq(accounts.id, id)).run();
    },

    count(): number {
      return db.select({ n: sql<number>`count(*)` }).from(accounts).get()?.n ?? 0;
    },

    /** Every account with its stored loads for one period, oldest first. */
    listWithUsage(period: string): (AccountRow & { loads: number })[] {
      return db
        .select({
          id: accounts.id,
          email: accounts.email,
          passwordHash: accounts.passwordHash,
          plan: accounts.plan,
          apiKey: accounts.apiKey,
          createdAt: accounts.createdAt,
          loads: sql<number>`coalesce(${usage.loads}, 0)`,
        })
        .from(accounts)
        .leftJoin(usage, sql`${usage.accountId} = ${accounts.id} and ${usage.period} = ${period}`)
        .orderBy(accounts.createdAt, accounts.id)
        .all();
    },
  };
}

export type AccountsStore = ReturnType<typeof createAccountsStore>;
