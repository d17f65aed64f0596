import { isNull, sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import { selectList } from './columns.ts';
import { writeGateOf } from './write-gate.ts';
import { accounts, signingSecrets } from './sqlite/schema.ts';

export type SigningSecretRow = typeof signingSecrets.$inferSelect;

/** Persistence of signing secrets; the read behind every signed pull is prepared once. */
export function createSigningSecretsStore(db: Db) {
  const gate = writeGateOf(db.$client);
  const byAccount = db.$client.query<SigningSecretRow, { accountId: string }>(
    `SELECT ${selectList(signingSecrets)} FROM signing_secrets WHERE account_id = $accountId`,
  );

  return {
    /** Answered without a promise: every signed pull reads it (the PostgreSQL store answers one). */
    find: (accountId: string): SigningSecretRow | undefined | Promise<SigningSecretRow | undefined> =>
      byAccount.get({ accountId }) ?? undefined,

    /** Adds the first secret; false when the account has one already. */
    insertFirst: (row: Pick<SigningSecretRow, 'accountId' | 'secret' | 'createdAt'>): Promise<boolean> =>
      gate.write(
        () =>
          db
            .insert(signingSecrets)
            .values(row)
            .onConflictDoNothing()
            .returning({ accountId: signingSecrets.accountId })
            .all().length === 1,
      ),

    /**
     * Replaces the secret when it is still `expectedSecret` (two rotations at once: one
     * wins, the other reads the winner's result). False when it changed meanwhile.
     */
    rotate: (row: SigningSecretRow, expectedSecret: string): Promise<boolean> =>
      gate.write(() => {
        const updated = db
          .update(signingSecrets)
          .set({
            secret: row.secret,
            createdAt: row.createdAt,
            previousSecret: row.previousSecret,
            previousValidUntil: row.previousValidUntil,
          })
          .where(sql`${signingSecrets.accountId} = ${row.accountId} and ${signingSecrets.secret} = ${expectedSecret}`)
          .returning({ accountId: signingSecrets.accountId })
          .all();
        return updated.length === 1;
      }),

    /** Accounts without a secret (made before secrets existed), oldest first. */
    accountsWithout: async (limit: number): Promise<string[]> =>
      db
        .select({ id: accounts.id })
        .from(accounts)
        .leftJoin(signingSecrets, sql`${signingSecrets.accountId} = ${accounts.id}`)
        .where(isNull(signingSecrets.accountId))
        .orderBy(accounts.createdAt, accounts.id)
        .limit(limit)
        .all()
        .map((row) => row.id),
  };
}

export type SigningSecretsStore = ReturnType<typeof createSigningSecretsStore>;
