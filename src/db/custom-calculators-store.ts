import { type AnyColumn, and, asc, desc, eq, lte, sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import { customCalculators, customCalculatorVersions, widgetConfigs } from './sqlite/schema.ts';
import { writeGateOf } from './write-gate.ts';

type CustomCalculatorRow = typeof customCalculators.$inferSelect;

/**
 * Where a calculator stands (docs/calculators.md, "Drafts and versions"): never published;
 * published, the draft being that version; or published, the draft changed since.
 */
export const CALCULATOR_STATUSES = ['draft', 'published', 'changed'] as const;
export type CalculatorStatus = (typeof CALCULATOR_STATUSES)[number];

/** A calculator as the owner's list shows it; `title` is the JSON of the draft's title. */
export interface CalculatorSummary {
  id: string;
  title: string;
  status: CalculatorStatus;
  publishedVersion: number | null;
  updatedAt: string;
}

/** One calculator: its row and the JSON of its published version (null before the first publish). */
export interface CalculatorRecord {
  row: CustomCalculatorRow;
  published: string | null;
  status: CalculatorStatus;
}

export interface VersionSummary {
  version: number;
  publishedAt: string;
}

/** What the widget's resolver reads: which published definition, and its JSON when the caller's copy is not it. */
export interface PublishedLookup {
  generation: string;
  version: number;
  /** Null when it is the definition the caller already has (`known`). */
  definition: string | null;
}

/** The published definition the caller holds, so the read can leave its text out. */
export interface KnownVersion {
  generation: string;
  version: number;
}

export type CreateOutcome = 'created' | 'exists' | 'limit';

/** A new calculator's row: a draft, not yet published. */
export type NewCalculator = Omit<CustomCalculatorRow, 'publishedVersion'>;

const c = customCalculators;
const v = customCalculatorVersions;

/**
 * The status in SQL, compared where the texts are (both dialects): the draft is the
 * published version when its JSON is that version's JSON, as a publish stores it.
 */
export const statusColumn = (columns: { publishedVersion: AnyColumn; published: AnyColumn; draft: AnyColumn }) =>
  sql<CalculatorStatus>`CASE WHEN ${columns.publishedVersion} IS NULL THEN 'draft' WHEN ${columns.published} = ${columns.draft} THEN 'published' ELSE 'changed' END`;

/**
 * Which published definition the account has under a calculator id, as one text
 * (`<generation>:<version>`): a scalar subquery on the account's row, null when the account
 * has no such calculator or never published it. PostgreSQL's widget lookup reads it with
 * the account, so a load of a cached calculator makes no round trip of its own. `calcId`
 * is the parameter.
 */
export const publishedStampSql = (calcId: string): string =>
  `(SELECT c.generation || ':' || c.published_version FROM custom_calculators c
      WHERE c.account_id = accounts.id AND c.id = ${calcId})`;

/**
 * The published-definition read of the widget's resolver, in plain SQL for both dialects
 * (`$n` parameters on PostgreSQL). The version's row is read only when the caller does not
 * hold it (CASE evaluates the subquery only then): on a cached load the read touches the
 * calculator's row alone, a fraction of what a join costs (docs/performance.md).
 */
export function publishedSql(parameters: readonly [string, string, string, string]): string {
  const [accountId, id, generation, version] = parameters;
  return `SELECT c.generation AS "generation", c.published_version AS "version",
      CASE WHEN c.generation = ${generation} AND c.published_version = ${version} THEN NULL
        ELSE (SELECT v.definition FROM custom_calculator_versions v
          WHERE v.account_id = c.account_id AND v.calculator_id = c.id AND v.version = c.published_version)
      END AS "definition"
    FROM custom_calculators c
    WHERE c.account_id = ${accountId} AND c.id = ${id} AND c.published_version IS NOT NULL`;
}

/**
 * Persistence of owners' calculators and their published versions. Every method answers a
 * promise but `published`, which the widget's resolver calls on every load of a custom
 * calculator: on SQLite it answers at once.
 */
export function createCustomCalculatorsStore(db: Db) {
  const gate = writeGateOf(db.$client);
  const publishedOf = db.$client.query<
    PublishedLookup,
    { accountId: string; id: string; generation: string; version: number }
  >(publishedSql(['$accountId', '$id', '$generation', '$version']));

  const status = statusColumn({ publishedVersion: c.publishedVersion, published: v.definition, draft: c.draft });
  const one = and(eq(c.accountId, sql.placeholder('accountId')), eq(c.id, sql.placeholder('id')));
  const joined = and(eq(v.accountId, c.accountId), eq(v.calculatorId, c.id), eq(v.version, c.publishedVersion));
  const findOne = db
    .select({ row: c, published: v.definition, status })
    .from(c)
    .leftJoin(v, joined)
    .where(one)
    .prepare();

  return {
    list: async (accountId: string): Promise<CalculatorSummary[]> =>
      db
        .select({
          id: c.id,
          title: c.title,
          status,
          publishedVersion: c.publishedVersion,
          updatedAt: c.updatedAt,
        })
        .from(c)
        .leftJoin(v, joined)
        .where(eq(c.accountId, accountId))
        .orderBy(asc(c.createdAt), asc(c.id))
        .all(),

    find: async (accountId: string, id: string): Promise<CalculatorRecord | undefined> =>
      findOne.get({ accountId, id }),

    /** Inserts the draft unless the id is taken or the account already has `limit` calculators. */
    create: (row: NewCalculator, limit: number): Promise<CreateOutcome> =>
      gate.write(() =>
        db.transaction(
          (tx) => {
            const taken = tx
              .select({ id: c.id })
              .from(c)
              .where(and(eq(c.accountId, row.accountId), eq(c.id, row.id)))
              .get();
            if (taken) return 'exists';
            const count =
              tx.select({ n: sql<number>`count(*)` }).from(c).where(eq(c.accountId, row.accountId)).get()?.n ?? 0;
            if (count >= limit) return 'limit';
            tx.insert(c).values(row).run();
            return 'created';
          },
          { behavior: 'immediate' },
        ),
      ),

    /** Replaces the draft; false when there is no such calculator. */
    saveDraft: (accountId: string, id: string, draft: { draft: string; title: string; updatedAt: string }) =>
      gate.write(
        () =>
          db
            .update(c)
            .set(draft)
            .where(and(eq(c.accountId, accountId), eq(c.id, id)))
            .returning({ id: c.id })
            .all().length === 1,
      ),

    /**
     * Publishes `definition` (the draft's JSON) as the next version, keeping the newest
     * `keep`; when it is already the published version, nothing changes (`created: false`).
     * Undefined when there is no such calculator.
     */
    publish: (
      accountId: string,
      id: string,
      definition: string,
      at: string,
      keep: number,
    ): Promise<{ version: number; created: boolean } | undefined> =>
      gate.write(() =>
        db.transaction(
          (tx) => {
            const current = tx
              .select({ version: c.publishedVersion, published: v.definition })
              .from(c)
              .leftJoin(v, joined)
              .where(and(eq(c.accountId, accountId), eq(c.id, id)))
              .get();
            if (!current) return undefined;
            if (current.version !== null && current.published === definition)
              return { version: current.version, created: false };
            const version = (current.version ?? 0) + 1;
            tx.insert(v).values({ accountId, calculatorId: id, version, definition, publishedAt: at }).run();
            tx.update(c)
              .set({ publishedVersion: version, updatedAt: at })
              .where(and(eq(c.accountId, accountId), eq(c.id, id)))
              .run();
            tx.delete(v)
              .where(and(eq(v.accountId, accountId), eq(v.calculatorId, id), lte(v.version, version - keep)))
              .run();
            return { version, created: true };
          },
          { behavior: 'immediate' },
        ),
      ),

    /** The kept versions, newest first. */
    versions: async (accountId: string, id: string): Promise<VersionSummary[]> =>
      db
        .select({ version: v.version, publishedAt: v.publishedAt })
        .from(v)
        .where(and(eq(v.accountId, accountId), eq(v.calculatorId, id)))
        .orderBy(desc(v.version))
        .all(),

    /** The JSON of one kept version. */
    version: async (accountId: string, id: string, version: number): Promise<string | undefined> =>
      db
        .select({ definition: v.definition })
        .from(v)
        .where(and(eq(v.accountId, accountId), eq(v.calculatorId, id), eq(v.version, version)))
        .get()?.definition,

    /**
     * Deletes the calculator with its versions (a foreign key cascades) and its widget
     * config, in one transaction; false when there was none. Usage rows name the id and stay.
     */
    delete: (accountId: string, id: string): Promise<boolean> =>
      gate.write(() =>
        db.transaction((tx) => {
          const deleted =
            tx
              .delete(c)
              .where(and(eq(c.accountId, accountId), eq(c.id, id)))
              .returning({ id: c.id })
              .all().length === 1;
          if (deleted)
            tx.delete(widgetConfigs)
              .where(and(eq(widgetConfigs.accountId, accountId), eq(widgetConfigs.calcId, id)))
              .run();
          return deleted;
        }),
      ),

    /** The ids of the account's calculators, published or not (what refused widget calls are counted under). */
    ids: async (accountId: string): Promise<string[]> =>
      db
        .select({ id: c.id })
        .from(c)
        .where(eq(c.accountId, accountId))
        .all()
        .map((row) => row.id),

    /**
     * The published version of a calculator, with its JSON unless it is `known`; undefined
     * when there is none (no such calculator, or never published). One point read,
     * answered without a promise: every widget load of a custom calculator makes it, so
     * a publish is seen at once by every server on the database.
     */
    published: (
      accountId: string,
      id: string,
      known?: KnownVersion,
    ): PublishedLookup | undefined | Promise<PublishedLookup | undefined> =>
      publishedOf.get({ accountId, id, generation: known?.generation ?? '', version: known?.version ?? -1 }) ??
      undefined,
  };
}

export type CustomCalculatorsStore = ReturnType<typeof createCustomCalculatorsStore>;
