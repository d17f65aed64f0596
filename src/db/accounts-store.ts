import { eq, getTableColumns, sql } from 'drizzle-orm';
import type { Plan } from '../plans.ts';
import type { Db } from './client.ts';
import { dataVersionOf } from './data-version.ts';
import { selectList } from './columns.ts';
import { accounts, type domains, usage } from './sqlite/schema.ts';
import { writeGateOf } from './write-gate.ts';

export type AccountRow = typeof accounts.$inferSelect;

/** The owner's limit columns, any of them (docs/api.md, "Owner limits"). */
export type OwnerLimitColumns = Partial<Pick<AccountRow, keyof typeof NO_OWNER_LIMITS>>;

/** The owner-limit columns of a new account: no cap set, register-domain on (docs/api.md, "Owner limits"). */
export const NO_OWNER_LIMITS = {
  loadsPerDay: null,
  loadsPerDayPerDomain: null,
  pullsPerSecond: null,
  registerDomain: 1,
} as const satisfies Partial<AccountRow>;
type DomainStatus = (typeof domains.$inferSelect)['status'];

/**
 * What the widget routes need to authorise a page: the key's account and the best status
 * among the stored origins that would admit the page (active beats pending; none is undefined).
 */
export interface WidgetLookup {
  account: AccountRow;
  domainStatus: DomainStatus | undefined;
  /**
   * Asked with a calculator id (an owner's calculator): a token of what the lookup saw of
   * it, for the resolver, which answers a calculator it holds under the same token without
   * a read of its own. On PostgreSQL, which published definition the account has under the
   * id (`<generation>:<version>`, null for none); on SQLite, the database's data version as
   * this lookup read it, which changes with every commit of any connection.
   */
  calculatorToken?: string | number | null;
}

/**
 * Persistence of accounts; hot lookups are prepared once per database. Every method
 * answers a promise, whatever the engine underneath, so services never know which it is;
 * `widgetLookup` alone may answer at once and its callers take either.
 */
export function createAccountsStore(db: Db) {
  const gate = writeGateOf(db.$client);
  // Behind every widget call: a plain prepared statement, as drizzle's row mapping costs
  // a fifth of the lookup. The column list gives the same row shape as drizzle's.
  const byApiKey = db.$client.query<AccountRow, { apiKey: string }>(
    `SELECT ${selectList(accounts)} FROM accounts WHERE api_key = $apiKey`,
  );
  // A page loading an owner's calculator: the data version after the lookup's reads.
  // Unchanged since the resolver read the calculator, the calculator it holds is current; a
  // read of its own would cost a load as much as another statement (docs/performance.md).
  const calculatorToken = dataVersionOf(db.$client);
  // Every widget call, after the key's account: the status of each candidate origin. On
  // SQLite two point reads cost half of one statement that joins them (measured in
  // docs/performance.md), and no round trip is saved in-process.
  const domainStatusOf = db.$client.query<{ status: DomainStatus }, { accountId: string; origin: string }>(
    'SELECT status FROM domains WHERE account_id = $accountId AND origin = $origin',
  );
  // Only for a pending row (rare): whether it is still waiting or has expired.
  const pendingSince = db.$client.query<{ createdAt: string }, { accountId: string; origin: string }>(
    'SELECT created_at AS createdAt FROM domains WHERE account_id = $accountId AND origin = $origin',
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
    findByApiKey: async (apiKey: string): Promise<AccountRow | undefined> => byApiKey.get({ apiKey }) ?? undefined,
    /**
     * The widget's authorisation: undefined when the key is unknown. Pending requests
     * made at or before `pendingExpiredAt` have expired and count as absent. Answered
     * without a promise (every embedding page calls it); the PostgreSQL store answers one.
     * With `calcId` (not a catalogue id), also its `calculatorToken`.
     */
    widgetLookup: (
      apiKey: string,
      origins: readonly string[],
      pendingExpiredAt: string,
      calcId?: string,
    ): WidgetLookup | undefined | Promise<WidgetLookup | undefined> => {
      const account = byApiKey.get({ apiKey });
      if (!account) return undefined;
      let domainStatus: DomainStatus | undefined;
      for (const origin of origins) {
        const status = domainStatusOf.get({ accountId: account.id, origin })?.status;
        if (status === 'active')
          return calcId === undefined
            ? { account, domainStatus: status }
            : { account, domainStatus: status, calculatorToken: calculatorToken() };
        if (status === 'pending' && domainStatus === undefined) {
          const since = pendingSince.get({ accountId: account.id, origin })?.createdAt;
          if (since !== undefined && since > pendingExpiredAt) domainStatus = status;
        }
      }
      return calcId === undefined
        ? { account, domainStatus }
        : { account, domainStatus, calculatorToken: calculatorToken() };
    },

    /** Sets the owner's limit columns that `limits` names (null clears a cap). */
    setLimits: (id: string, limits: OwnerLimitColumns): Promise<void> =>
      gate.write(() => {
        db.update(accounts).set(limits).where(eq(accounts.id, id)).run();
      }),
    findById: async (id: string): Promise<AccountRow | undefined> => byId.get({ id }),
    findByEmail: async (email: string): Promise<AccountRow | undefined> => byEmail.get({ email }),

    /** Resolves false when the email is taken (the unique index decides, not a prior read). */
    insert: (row: typeof accounts.$inferInsert): Promise<boolean> =>
      gate.write(
        () => db.insert(accounts).values(row).onConflictDoNothing().returning({ id: accounts.id }).all().length === 1,
      ),

    setPlan: (id: string, plan: Plan): Promise<void> =>
      gate.write(() => {
        db.update(accounts).set({ plan }).where(eq(accounts.id, id)).run();
      }),

    setApiKey: (id: string, apiKey: string): Promise<void> =>
      gate.write(() => {
        db.update(accounts).set({ apiKey }).where(eq(accounts.id, id)).run();
      }),

    /** Refuses every session token issued before `validAfter` (ms since the epoch). */
    revokeTokens: (id: string, validAfter: number): Promise<void> =>
      gate.write(() => {
        db.update(accounts).set({ tokensValidAfter: validAfter }).where(eq(accounts.id, id)).run();
      }),

    /** A new password hash, and every token issued before `validAfter` refused, in one write. */
    setPassword: (id: string, passwordHash: string, validAfter: number): Promise<void> =>
      gate.write(() => {
        db.update(accounts).set({ passwordHash, tokensValidAfter: validAfter }).where(eq(accounts.id, id)).run();
      }),

    /**
     * Deletes the account; its domains, configs (with their secrets) and usage go with it
     * (foreign keys with ON DELETE CASCADE, in the same statement). False when none was there.
     * `secure_delete` zeroes the freed bytes in the pages; the write-ahead log still holds
     * the pages as they were until a checkpoint, so one runs now and empties it: nothing of
     * the account stays in either file (docs/operations.md).
     */
    delete: (id: string): Promise<boolean> =>
      gate.write(() => {
        const deleted =
          db.delete(accounts).where(eq(accounts.id, id)).returning({ id: accounts.id }).all().length === 1;
        if (deleted) db.$client.run('PRAGMA wal_checkpoint(TRUNCATE)');
        return deleted;
      }),

    count: async (): Promise<number> => db.select({ n: sql<number>`count(*)` }).from(accounts).get()?.n ?? 0,

    /** Every account with its stored loads for one period, oldest first. */
    listWithUsage: async (period: string): Promise<(AccountRow & { loads: number })[]> =>
      db
        .select({ ...getTableColumns(accounts), loads: sql<number>`coalesce(${usage.loads}, 0)` })
        .from(accounts)
        .leftJoin(usage, sql`${usage.accountId} = ${accounts.id} and ${usage.period} = ${period}`)
        .orderBy(accounts.createdAt, accounts.id)
        .all(),
  };
}

export type AccountsStore = ReturnType<typeof createAccountsStore>;
