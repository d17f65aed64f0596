import { and, asc, between, eq, getTableColumns, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { AccountRow, AccountsStore, WidgetLookup } from '../accounts-store.ts';
import { selectList } from '../columns.ts';
import { publishedStampSql } from '../custom-calculators-store.ts';
import type { DomainsStore } from '../domains-store.ts';
import type { SigningSecretsStore } from '../signing-secrets-store.ts';
import { DAILY_DELTAS, type UsageDeltas, type UsageStore } from '../usage-store.ts';
import { FUNNEL_COUNTS, type FunnelCounts, type FunnelEvent } from '../../usage/funnel.ts';
import type { WidgetConfigStore } from '../widget-config-store.ts';
import type { SQL } from 'bun';
import type { PgDb } from './client.ts';
import {
  accounts,
  domains,
  funnelDaily,
  refusedDaily,
  signingSecrets,
  skippedDaily,
  usage,
  usageDaily,
  webhookDaily,
  widgetConfigs,
} from './schema.ts';

/**
 * The PostgreSQL side of every store, typed by the SQLite side's interface: services
 * get the same methods and row shapes from either.
 */
type Tx = Parameters<Parameters<PgDb['transaction']>[0]>[0];

/** The advisory lock of domain check-then-write sequences ("cdom"). */
const DOMAINS_LOCK = 0x63646f6d;

/** The account columns under the names of `AccountRow`, for the hot lookups below. */
const ACCOUNT_COLUMNS = selectList(accounts);

/**
 * The columns Bun's client answers as strings (int8), where the schema's `mode: 'number'`
 * gives drizzle's rows a number.
 */
const ACCOUNT_INT8_KEYS = Object.entries(getTableColumns(accounts)).flatMap(([key, column]) =>
  column.columnType === 'PgBigInt53' ? [key] : [],
);

/** A row of the lookups below as Bun's client answers it. */
type RawAccount = Record<string, unknown>;

/** The raw row as `AccountRow`, in place (one lookup's own object). */
function accountOf(raw: RawAccount): AccountRow {
  for (const key of ACCOUNT_INT8_KEYS) raw[key] = Number(raw[key]);
  return raw as AccountRow;
}

function lookupOf([raw]: (RawAccount & { domainStatus?: WidgetLookup['domainStatus'] | null })[]):
  | WidgetLookup
  | undefined {
  if (!raw) return undefined;
  const { domainStatus, ...account } = raw;
  return { account: accountOf(account), domainStatus: domainStatus ?? undefined };
}

/** The lookup of a page loading an owner's calculator: with the calculator's published stamp. */
function lookupWithCalculatorOf([raw]: (RawAccount & {
  domainStatus?: WidgetLookup['domainStatus'] | null;
  published: string | null;
})[]): WidgetLookup | undefined {
  if (!raw) return undefined;
  const { domainStatus, published, ...account } = raw;
  return { account: accountOf(account), domainStatus: domainStatus ?? undefined, calculatorToken: published };
}

/** `client` is the pool the widget's key lookups run on (`OpenPostgres.widget`). */
export function createPgAccountsStore(db: PgDb, client: SQL = db.$client): AccountsStore {
  // Behind every widget call, so straight through Bun's client: drizzle's execute adds
  // several promise layers and a row mapping per call (docs/performance.md, "Where the time
  // goes on PostgreSQL"). Bun prepares each statement once per connection.
  const byApiKey = `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE api_key = $1`;
  // Every widget call: the key's account and its best matching domain status in one query;
  // the candidate origins arrive as one text[], so one prepared query serves any count.
  // A pending request made at or before $3 has expired and counts as absent.
  const domainStatus = `(SELECT CASE WHEN bool_or(d.status = 'active') THEN 'active' WHEN bool_or(d.created_at > $3) THEN 'pending' END
         FROM domains d WHERE d.account_id = accounts.id AND d.origin = ANY($2::text[])) AS "domainStatus"`;
  const forWidget = `SELECT ${ACCOUNT_COLUMNS}, ${domainStatus} FROM accounts WHERE api_key = $1`;
  // The same for a page loading an owner's calculator, with its published stamp (its
  // `calculatorToken`): one round trip, where a read of its own would be a second.
  const forWidgetCalculator = `SELECT ${ACCOUNT_COLUMNS}, ${domainStatus}, ${publishedStampSql('$4')} AS "published"
    FROM accounts WHERE api_key = $1`;
  return {
    findByApiKey: (apiKey) =>
      client.unsafe(byApiKey, [apiKey]).then(([raw]: RawAccount[]) => (raw ? accountOf(raw) : undefined)),
    // No async wrapper: each one is another promise and tick on every load.
    widgetLookup: (apiKey, origins, pendingExpiredAt, calcId) =>
      calcId === undefined
        ? client.unsafe(forWidget, [apiKey, origins, pendingExpiredAt]).then(lookupOf)
        : client.unsafe(forWidgetCalculator, [apiKey, origins, pendingExpiredAt, calcId]).then(lookupWithCalculatorOf),
    findById: async (id) => (await db.select().from(accounts).where(eq(accounts.id, id)))[0],
    findByEmail: async (email) => (await db.select().from(accounts).where(eq(accounts.email, email)))[0],
    insert: async (row) =>
      (await db.insert(accounts).values(row).onConflictDoNothing().returning({ id: accounts.id })).length === 1,
    setPlan: async (id, plan) => {
      await db.update(accounts).set({ plan }).where(eq(accounts.id, id));
    },
    setApiKey: async (id, apiKey) => {
      await db.update(accounts).set({ apiKey }).where(eq(accounts.id, id));
    },
    revokeTokens: async (id, validAfter) => {
      await db.update(accounts).set({ tokensValidAfter: validAfter }).where(eq(accounts.id, id));
    },
    setPassword: async (id, passwordHash, validAfter) => {
      await db.update(accounts).set({ passwordHash, tokensValidAfter: validAfter }).where(eq(accounts.id, id));
    },
    setLimits: async (id, limits) => {
      await db.update(accounts).set(limits).where(eq(accounts.id, id));
    },
    delete: async (id) =>
      (await db.delete(accounts).where(eq(accounts.id, id)).returning({ id: accounts.id })).length === 1,
    count: async () => (await db.select({ n: sql<number>`count(*)::int` }).from(accounts))[0]?.n ?? 0,
    listWithUsage: async (period) =>
      db
        .select({ ...getTableColumns(accounts), loads: sql<number>`coalesce(${usage.loads}, 0)`.mapWith(Number) })
        .from(accounts)
        .leftJoin(usage, and(eq(usage.accountId, accounts.id), eq(usage.period, period)))
        .orderBy(accounts.createdAt, accounts.id),
  };
}

function domainOperations(db: PgDb | Tx) {
  return {
    status: async (accountId: string, origin: string) =>
      (
        await db
          .select({ status: domains.status })
          .from(domains)
          .where(and(eq(domains.accountId, accountId), eq(domains.origin, origin)))
      )[0]?.status,
    find: async (accountId: string, origin: string) =>
      (
        await db
          .select()
          .from(domains)
          .where(and(eq(domains.accountId, accountId), eq(domains.origin, origin)))
      )[0],
    list: async (accountId: string) =>
      db
        .select()
        .from(domains)
        .where(eq(domains.accountId, accountId))
        .orderBy(asc(domains.createdAt), asc(domains.origin)),
    countPending: async (accountId: string, expiredAt: string) =>
      (
        await db
          .select({ n: sql<number>`count(*)::int` })
          .from(domains)
          .where(and(eq(domains.accountId, accountId), eq(domains.status, 'pending'), gt(domains.createdAt, expiredAt)))
      )[0]?.n ?? 0,
    insert: async (row: typeof domains.$inferInsert) => {
      await db.insert(domains).values(row);
    },
    activate: async (accountId: string, origin: string) => {
      await db
        .update(domains)
        .set({ status: 'active' })
        .where(and(eq(domains.accountId, accountId), eq(domains.origin, origin)));
    },
    remove: async (accountId: string, origin: string) =>
      (
        await db
          .delete(domains)
          .where(and(eq(domains.accountId, accountId), eq(domains.origin, origin)))
          .returning({ origin: domains.origin })
      ).length === 1,
  };
}

export function createPgDomainsStore(db: PgDb): DomainsStore {
  return {
    ...domainOperations(db),
    removeExpired: async (expiredAt) =>
      (
        await db
          .delete(domains)
          .where(and(eq(domains.status, 'pending'), lte(domains.createdAt, expiredAt)))
          .returning({ origin: domains.origin })
      ).length,
    // Check-then-write sequences take turns on every server under one transaction-scoped
    // advisory lock: domain changes are rare, and no retry loop is needed.
    transaction: (work) =>
      db.transaction(async (tx) => {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(${DOMAINS_LOCK})`);
        return work(domainOperations(tx));
      }),
  };
}

/** The per-day tables of usage, for retention. */
const DAILY_TABLES = {
  loads: usageDaily,
  calls: webhookDaily,
  refused: refusedDaily,
  skipped: skippedDaily,
  funnel: funnelDaily,
} as const;

/** One step's count of `funnel_daily`'s rows, summed (the steps side by side, as `FunnelCounts` names them). */
const stepSum = (event: FunnelEvent) =>
  sql<number>`sum(CASE WHEN ${funnelDaily.event} = ${event} THEN ${funnelDaily.count} ELSE 0 END)`.mapWith(Number);
// One sum per step, named as `FunnelCounts` names them: from the steps' one list.
const FUNNEL_SUMS = Object.fromEntries(
  Object.entries(FUNNEL_COUNTS).map(([event, name]) => [name, stepSum(event as FunnelEvent)]),
) as Record<keyof FunnelCounts, ReturnType<typeof stepSum>>;

export function createPgUsageStore(db: PgDb): UsageStore {
  const dayRange = (column: (typeof DAILY_TABLES)[keyof typeof DAILY_TABLES]['day'], from: string, to: string) =>
    between(column, from, to);
  return {
    loads: async (accountId, period) =>
      (
        await db
          .select({ loads: usage.loads })
          .from(usage)
          .where(and(eq(usage.accountId, accountId), eq(usage.period, period)))
      )[0]?.loads ?? 0,
    dailyLoads: async (accountId, from, to) =>
      db
        .select({ date: usageDaily.day, calcId: usageDaily.calcId, domain: usageDaily.domain, loads: usageDaily.loads })
        .from(usageDaily)
        .where(and(eq(usageDaily.accountId, accountId), dayRange(usageDaily.day, from, to)))
        .orderBy(asc(usageDaily.day), asc(usageDaily.calcId), asc(usageDaily.domain)),
    dailyCalls: async (accountId, from, to) =>
      db
        .select({
          date: webhookDaily.day,
          calcId: webhookDaily.calcId,
          outcome: webhookDaily.outcome,
          calls: webhookDaily.calls,
        })
        .from(webhookDaily)
        .where(and(eq(webhookDaily.accountId, accountId), dayRange(webhookDaily.day, from, to)))
        .orderBy(asc(webhookDaily.day), asc(webhookDaily.calcId), asc(webhookDaily.outcome)),
    dailyRefused: async (accountId, from, to) =>
      db
        .select({
          date: refusedDaily.day,
          calcId: refusedDaily.calcId,
          reason: refusedDaily.reason,
          count: refusedDaily.count,
        })
        .from(refusedDaily)
        .where(and(eq(refusedDaily.accountId, accountId), dayRange(refusedDaily.day, from, to)))
        .orderBy(asc(refusedDaily.day), asc(refusedDaily.calcId), asc(refusedDaily.reason)),
    dailySkipped: async (accountId, from, to) =>
      db
        .select({
          date: skippedDaily.day,
          calcId: skippedDaily.calcId,
          reason: skippedDaily.reason,
          count: skippedDaily.count,
        })
        .from(skippedDaily)
        .where(and(eq(skippedDaily.accountId, accountId), dayRange(skippedDaily.day, from, to)))
        .orderBy(asc(skippedDaily.day), asc(skippedDaily.calcId), asc(skippedDaily.reason)),
    dailyFunnel: async (accountId, from, to) =>
      db
        .select({ date: funnelDaily.day, calcId: funnelDaily.calcId, domain: funnelDaily.domain, ...FUNNEL_SUMS })
        .from(funnelDaily)
        .where(and(eq(funnelDaily.accountId, accountId), dayRange(funnelDaily.day, from, to)))
        .groupBy(funnelDaily.day, funnelDaily.calcId, funnelDaily.domain)
        .orderBy(asc(funnelDaily.day), asc(funnelDaily.calcId), asc(funnelDaily.domain)),
    funnelTotals: async (accountId, from, to, filter = {}) =>
      db
        .select({ calcId: funnelDaily.calcId, ...FUNNEL_SUMS })
        .from(funnelDaily)
        .where(
          and(
            eq(funnelDaily.accountId, accountId),
            dayRange(funnelDaily.day, from, to),
            filter.calcId === undefined ? undefined : eq(funnelDaily.calcId, filter.calcId),
            filter.domain === undefined ? undefined : eq(funnelDaily.domain, filter.domain),
          ),
        )
        .groupBy(funnelDaily.calcId)
        .orderBy(asc(funnelDaily.calcId)),
    loadsOnDay: async (accountId, day) =>
      db
        .select({ domain: usageDaily.domain, loads: sql<number>`sum(${usageDaily.loads})`.mapWith(Number) })
        .from(usageDaily)
        .where(and(eq(usageDaily.accountId, accountId), eq(usageDaily.day, day)))
        .groupBy(usageDaily.domain),
    loadsBetween: async (accountId, from, to) =>
      (
        await db
          .select({ loads: sql<number>`coalesce(sum(${usageDaily.loads}), 0)`.mapWith(Number) })
          .from(usageDaily)
          .where(and(eq(usageDaily.accountId, accountId), dayRange(usageDaily.day, from, to)))
      )[0]?.loads ?? 0,
    addAll: (deltas) => addAll(db, deltas),
    pruneBefore: async (day) =>
      db.transaction(async (tx) => {
        const pruned = { loads: 0, calls: 0, refused: 0, skipped: 0, funnel: 0 };
        for (const [list, table] of Object.entries(DAILY_TABLES) as [keyof typeof DAILY_TABLES, PerDayTable][])
          pruned[list] = (await tx.delete(table).where(sql`${table.day} < ${day}`).returning({ d: table.day })).length;
        return pruned;
      }),
  };
}

type PerDayTable = (typeof DAILY_TABLES)[keyof typeof DAILY_TABLES];

/**
 * Rows per statement: PostgreSQL takes at most 65535 parameters in one, and a flush after
 * a long outage may hold tens of thousands of per-day rows.
 */
const ROWS_PER_STATEMENT = 2000;

function chunksOf<T>(rows: T[]): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) chunks.push(rows.slice(i, i + ROWS_PER_STATEMENT));
  return chunks;
}

/**
 * One transaction of atomic increments (`ON CONFLICT … DO UPDATE SET n = n + excluded.n`),
 * so any number of servers add to the same rows without losing a count. Counts of
 * accounts deleted meanwhile are dropped, as on SQLite.
 */
async function addAll(db: PgDb, deltas: UsageDeltas): Promise<void> {
  const all: { accountId: string }[] = [
    ...deltas.monthly,
    ...DAILY_DELTAS.flatMap((list): { accountId: string }[] => deltas[list]),
  ];
  if (all.length === 0) return;
  await db.transaction(async (tx) => {
    const ids = [...new Set(all.map((d) => d.accountId))];
    const live = new Set<string>();
    for (const chunk of chunksOf(ids))
      for (const { id } of await tx.select({ id: accounts.id }).from(accounts).where(inArray(accounts.id, chunk)))
        live.add(id);
    const alive = <T extends { accountId: string }>(rows: T[]) => chunksOf(rows.filter((r) => live.has(r.accountId)));
    for (const monthly of alive(deltas.monthly))
      await tx
        .insert(usage)
        .values(monthly)
        .onConflictDoUpdate({
          target: [usage.accountId, usage.period],
          set: { loads: sql`${usage.loads} + excluded.loads` },
        });
    for (const loads of alive(deltas.loads))
      await tx
        .insert(usageDaily)
        .values(loads)
        .onConflictDoUpdate({
          target: [usageDaily.accountId, usageDaily.day, usageDaily.calcId, usageDaily.domain],
          set: { loads: sql`${usageDaily.loads} + excluded.loads` },
        });
    for (const calls of alive(deltas.calls))
      await tx
        .insert(webhookDaily)
        .values(calls)
        .onConflictDoUpdate({
          target: [webhookDaily.accountId, webhookDaily.day, webhookDaily.calcId, webhookDaily.outcome],
          set: { calls: sql`${webhookDaily.calls} + excluded.calls` },
        });
    for (const refused of alive(deltas.refused))
      await tx
        .insert(refusedDaily)
        .values(refused)
        .onConflictDoUpdate({
          target: [refusedDaily.accountId, refusedDaily.day, refusedDaily.calcId, refusedDaily.reason],
          set: { count: sql`${refusedDaily.count} + excluded.count` },
        });
    for (const skipped of alive(deltas.skipped))
      await tx
        .insert(skippedDaily)
        .values(skipped)
        .onConflictDoUpdate({
          target: [skippedDaily.accountId, skippedDaily.day, skippedDaily.calcId, skippedDaily.reason],
          set: { count: sql`${skippedDaily.count} + excluded.count` },
        });
    for (const funnel of alive(deltas.funnel))
      await tx
        .insert(funnelDaily)
        .values(funnel)
        .onConflictDoUpdate({
          target: [funnelDaily.accountId, funnelDaily.day, funnelDaily.calcId, funnelDaily.domain, funnelDaily.event],
          set: { count: sql`${funnelDaily.count} + excluded.count` },
        });
  });
}

export function createPgWidgetConfigStore(db: PgDb): WidgetConfigStore {
  return {
    find: async (accountId, calcId) =>
      (
        await db
          .select()
          .from(widgetConfigs)
          .where(and(eq(widgetConfigs.accountId, accountId), eq(widgetConfigs.calcId, calcId)))
      )[0],
    saveWebhook: async (row) => {
      await db
        .insert(widgetConfigs)
        .values({ ...row, webhookStatus: null })
        .onConflictDoUpdate({
          target: [widgetConfigs.accountId, widgetConfigs.calcId],
          set: {
            webhookUrl: row.webhookUrl,
            webhookHeaders: row.webhookHeaders,
            webhookStatus: null,
            updatedAt: row.updatedAt,
          },
        });
    },
    saveStatuses: async (statuses) => {
      if (statuses.length === 0) return;
      await db.transaction(async (tx) => {
        for (const s of statuses)
          await tx
            .update(widgetConfigs)
            .set({ webhookStatus: s.status })
            .where(
              and(
                eq(widgetConfigs.accountId, s.accountId),
                eq(widgetConfigs.calcId, s.calcId),
                // Not about an earlier webhook: both times are ISO-8601 UTC text.
                lte(widgetConfigs.updatedAt, s.at),
                // Only over an older outcome: another server may have stored a newer one.
                or(
                  isNull(widgetConfigs.webhookStatus),
                  sql`(${widgetConfigs.webhookStatus}::json ->> 'at')::timestamptz < ${s.at}::timestamptz`,
                ),
              ),
            );
      });
    },
  };
}

export function createPgSigningSecretsStore(db: PgDb): SigningSecretsStore {
  return {
    find: async (accountId) =>
      (await db.select().from(signingSecrets).where(eq(signingSecrets.accountId, accountId)))[0],
    insertFirst: async (row) =>
      (await db.insert(signingSecrets).values(row).onConflictDoNothing().returning({ id: signingSecrets.accountId }))
        .length === 1,
    rotate: async (row, expectedSecret) =>
      (
        await db
          .update(signingSecrets)
          .set({
            secret: row.secret,
            createdAt: row.createdAt,
            previousSecret: row.previousSecret,
            previousValidUntil: row.previousValidUntil,
          })
          .where(and(eq(signingSecrets.accountId, row.accountId), eq(signingSecrets.secret, expectedSecret)))
          .returning({ id: signingSecrets.accountId })
      ).length === 1,
    accountsWithout: async (limit) =>
      (
        await db
          .select({ id: accounts.id })
          .from(accounts)
          .leftJoin(signingSecrets, eq(signingSecrets.accountId, accounts.id))
          .where(isNull(signingSecrets.accountId))
          .orderBy(accounts.createdAt, accounts.id)
          .limit(limit)
      ).map((r) => r.id),
  };
}
