import type { AccountRow } from '../../db/accounts-store.ts';
import type { SigningSecretRow, SigningSecretsStore } from '../../db/signing-secrets-store.ts';
import { AppError } from '../../errors.ts';
import type { LoginLimiter } from '../../limits/login-limiter.ts';
import { confirmPassword, type Passwords } from '../../security/passwords.ts';
import { newSigningSecret } from '../../secrets.ts';
import type { HeaderCipher } from '../../security/header-cipher.ts';
import type { SigningSecretJson } from './model.ts';

export interface SigningSecretDeps {
  signingSecrets: SigningSecretsStore;
  cipher: HeaderCipher;
  now: () => Date;
}

/** How long the previous secret keeps verifying after a rotation. */
const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

// Decrypted secrets by account and sealed text: a rotation writes a new sealed text, so
// an entry can never be stale, and the account in the key keeps the associated-data
// check (a sealed text copied to another account misses and fails to open). Bounded;
// emptied when full (a miss costs one decryption).
const MAX_CACHED = 10_000;

// The associated data differs from webhook headers' (`<accountId>/<calcId>`), so one
// kind of ciphertext never opens as the other.
const sealedFor = (accountId: string) => `signing-secret:${accountId}`;

/**
 * Signing secrets: one per account, made with the account (or, for accounts older than
 * signing secrets, at start-up or first use), rotated with a 24-hour overlap.
 */
export function createSigningSecrets(deps: SigningSecretDeps) {
  const opened = new Map<string, string>();

  function open(sealed: string, accountId: string): string {
    const key = `${accountId}\u0000${sealed}`;
    let secret = opened.get(key);
    if (secret === undefined) {
      secret = deps.cipher.openText(sealed, sealedFor(accountId));
      if (opened.size >= MAX_CACHED) opened.clear();
      opened.set(key, secret);
    }
    return secret;
  }

  /** Whether a sealed secret still opens (it does not after the data directory's key was replaced). */
  function opens(sealed: string, accountId: string): boolean {
    try {
      open(sealed, accountId);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * The account's row, creating its first secret when it has none. A secret that no
   * longer opens (the data directory's key was replaced) counts as gone: it is replaced,
   * as the owner must take a new one to their backend either way.
   */
  async function ensure(accountId: string): Promise<SigningSecretRow> {
    const found = await deps.signingSecrets.find(accountId);
    if (found && opens(found.secret, accountId)) return found;
    if (found) {
      const fresh: SigningSecretRow = {
        accountId,
        secret: deps.cipher.sealText(newSigningSecret(), sealedFor(accountId)),
        createdAt: deps.now().toISOString(),
        previousSecret: null,
        previousValidUntil: null,
      };
      await deps.signingSecrets.rotate(fresh, found.secret);
      return ensure(accountId);
    }
    await deps.signingSecrets.insertFirst({
      accountId,
      secret: deps.cipher.sealText(newSigningSecret(), sealedFor(accountId)),
      createdAt: deps.now().toISOString(),
    });
    // Another request may have inserted first: the stored row is the one that counts.
    const stored = await deps.signingSecrets.find(accountId);
    if (!stored) throw new Error(`signing secret of ${accountId} was not stored`);
    return stored;
  }

  /** The previous secret's end while it still verifies, else null. */
  function overlapEnd(row: SigningSecretRow): string | null {
    if (!row.previousSecret || !row.previousValidUntil) return null;
    return Date.parse(row.previousValidUntil) > deps.now().getTime() ? row.previousValidUntil : null;
  }

  /** The row's secrets that sign and verify now; a missing or unopenable row goes through `ensure`. */
  function activeOf(accountId: string, row: SigningSecretRow | undefined): string[] | Promise<string[]> {
    return row && opens(row.secret, accountId) ? secretsOf(row) : ensure(accountId).then(secretsOf);
  }

  function secretsOf(row: SigningSecretRow): string[] {
    const { accountId } = row;
    const current = open(row.secret, accountId);
    // A previous secret sealed under a replaced key is simply no longer accepted.
    return overlapEnd(row) && row.previousSecret && opens(row.previousSecret, accountId)
      ? [current, open(row.previousSecret, accountId)]
      : [current];
  }

  /** The answer with the whole secret, or (`whole` false) only its last four characters. */
  function toJson(row: SigningSecretRow, whole: boolean): SigningSecretJson {
    const secret = open(row.secret, row.accountId);
    return {
      signingSecret: whole ? secret : null,
      last4: secret.slice(-4),
      createdAt: row.createdAt,
      previousValidUntil: overlapEnd(row),
    };
  }

  return {
    ensure: async (accountId: string): Promise<void> => {
      await ensure(accountId);
    },

    /** The secret's answer: whole, or (`whole` false, a session too old and no password) its last four characters. */
    read: async (accountId: string, whole = true): Promise<SigningSecretJson> => toJson(await ensure(accountId), whole),

    /**
     * A new secret; the current one becomes the previous and verifies for 24 more hours,
     * or (`endOverlap`, a secret that may have leaked) stops at once. A previous secret
     * still in its overlap is dropped at once.
     */
    async rotate(accountId: string, { endOverlap = false } = {}): Promise<SigningSecretJson> {
      for (;;) {
        const current = await ensure(accountId);
        const now = deps.now();
        const next: SigningSecretRow = {
          accountId,
          secret: deps.cipher.sealText(newSigningSecret(), sealedFor(accountId)),
          createdAt: now.toISOString(),
          previousSecret: endOverlap ? null : current.secret,
          previousValidUntil: endOverlap ? null : new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString(),
        };
        if (await deps.signingSecrets.rotate(next, current.secret)) return toJson(next, true);
      }
    },

    /**
     * The secrets that sign and verify now: the current one first, then the previous
     * one during its overlap. Undecryptable rows throw (the caller decides what that means).
     */
    active(accountId: string): string[] | Promise<string[]> {
      // Every signed pull asks: answered without a promise when the store answers one
      // and the account's secret opens (on SQLite, nearly always).
      const found = deps.signingSecrets.find(accountId);
      if (found instanceof Promise) return found.then((row) => activeOf(accountId, row));
      return activeOf(accountId, found);
    },

    /** Gives every account made before signing secrets existed its first one. */
    async backfill(): Promise<number> {
      let made = 0;
      for (;;) {
        const ids = await deps.signingSecrets.accountsWithout(500);
        if (ids.length === 0) return made;
        for (const id of ids) await ensure(id);
        made += ids.length;
      }
    },
  };
}

export type SigningSecrets = ReturnType<typeof createSigningSecrets>;

/** What decides whether an owner may have the signing secret: the session's age, or the password. */
export interface SecretAccessDeps {
  limiter: LoginLimiter;
  passwords: Passwords;
  /** A token at most this old counts as a fresh sign-in. */
  freshAuthSeconds: number;
  now: () => Date;
}

/** Whether the session was signed in (its token issued) at most `freshAuthSeconds` ago. */
export function isFreshSession(deps: Pick<SecretAccessDeps, 'freshAuthSeconds' | 'now'>, issuedAt: number): boolean {
  return deps.now().getTime() - issuedAt <= deps.freshAuthSeconds * 1000;
}

/**
 * The signing secret is a credential of its own: a stolen session token alone must not
 * yield it. Reading it whole or replacing it needs a fresh session or the password
 * (checked, and counted like a sign-in); otherwise 403 `password_required`.
 */
export async function confirmSecretAccess(
  deps: SecretAccessDeps,
  session: { account: AccountRow; tokenIssuedAt: number },
  password: string | undefined,
  clientIp: string,
  action: string,
): Promise<void> {
  if (password !== undefined) {
    await confirmPassword(deps, session.account, password, clientIp, 'The password is wrong.');
    return;
  }
  if (isFreshSession(deps, session.tokenIssuedAt)) return;
  throw new AppError(
    'password_required',
    `${action} needs your password: this session was signed in more than ${deps.freshAuthSeconds} seconds ago.`,
  );
}
