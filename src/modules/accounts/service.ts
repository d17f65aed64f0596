import { DEFAULT_PLAN, type Plan } from '../../plans.ts';
import { type AccountRow, type AccountsStore, NO_OWNER_LIMITS } from '../../db/accounts-store.ts';
import { AppError, invalidRequest } from '../../errors.ts';
import { newAccountId, newApiKey } from '../../secrets.ts';
import { confirmSecretAccess, type SecretAccessDeps, type SigningSecrets } from '../signing-secret/index.ts';
import type { LoginLimiter } from '../../limits/login-limiter.ts';
import { confirmPassword, directPasswords, type Passwords, provePassword } from '../../security/passwords.ts';
import type { AccountJson } from './model.ts';

export interface AccountsDeps {
  accounts: AccountsStore;
  now: () => Date;
  /** The server's bounded password work; operator commands on the machine go without. */
  passwords?: Passwords;
}

/** What checks a password: the sign-in counts and the bounded password work. */
type PasswordDeps = AccountsDeps & { limiter: LoginLimiter; passwords: Passwords };

/** What making an account needs: its signing secret is made with it. */
export type AccountCreationDeps = AccountsDeps & { signingSecrets: Pick<SigningSecrets, 'ensure'> };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function toAccountJson(row: AccountRow): AccountJson {
  return { id: row.id, email: row.email, plan: row.plan, apiKey: row.apiKey, createdAt: row.createdAt };
}

// Control and invisible format characters (Unicode Cc, Cf): an address holding them
// could rewrite an operator's terminal or look like another address.
const HIDDEN = /[\p{Cc}\p{Cf}]/u;

export function normaliseEmail(email: string): string {
  if (HIDDEN.test(email)) throw invalidRequest('email must not contain control or invisible formatting characters.');
  const normalised = email.trim().toLowerCase();
  if (!EMAIL.test(normalised) || normalised.length > 254)
    throw invalidRequest('email must be an email address such as owner@shop.example.');
  return normalised;
}

function checkPassword(password: string): void {
  if (password.length < 10) throw invalidRequest('password must be at least 10 characters long.');
  if (password.length > 1024) throw invalidRequest('password must be at most 1024 characters long.');
}

/** Creates an account (signup, operator command, demo seed); 409 when the email is taken. */
export async function createAccount(
  deps: AccountCreationDeps,
  input: { email: string; password: string; plan?: Plan },
): Promise<AccountRow> {
  const email = normaliseEmail(input.email);
  checkPassword(input.password);
  // Before the deliberately slow hash: a taken email must not cost an argon2 run.
  if (await deps.accounts.findByEmail(email)) throw emailTaken();
  const row: AccountRow = {
    id: newAccountId(),
    email,
    passwordHash: await hashPassword(deps, input.password),
    plan: input.plan ?? DEFAULT_PLAN,
    apiKey: newApiKey(),
    createdAt: deps.now().toISOString(),
    tokensValidAfter: 0,
    ...NO_OWNER_LIMITS,
    resultsVersion: 0,
  };
  // The unique index still decides when two sign-ups for one email race.
  if (!(await deps.accounts.insert(row))) throw emailTaken();
  await deps.signingSecrets.ensure(row.id);
  return row;
}

function emailTaken(): AppError {
  return new AppError('email_taken', 'An account with this email already exists.');
}

let timingHash: Promise<string> | undefined;

/**
 * Checks credentials; unknown emails verify against a throwaway hash so both failures
 * take similar time and give the same answer (no account enumeration).
 */
export async function authenticate(
  deps: PasswordDeps,
  input: { email: string; password: string },
  clientIp: string,
): Promise<AccountRow> {
  if (HIDDEN.test(input.email))
    throw invalidRequest('email must not contain control or invisible formatting characters.');
  const email = input.email.trim().toLowerCase();
  let row: AccountRow | undefined;
  await provePassword(
    deps,
    { email, clientIp },
    async (argon2) => {
      row = await deps.accounts.findByEmail(email);
      const slot = await argon2();
      timingHash ??= slot.hash('timing-equaliser-password');
      const ok = await slot.verify(input.password, row?.passwordHash ?? (await timingHash));
      return ok && row !== undefined;
    },
    'Email or password is wrong.',
  );
  if (!row) throw new AppError('invalid_credentials', 'Email or password is wrong.');
  return row;
}

export async function rotateApiKey(deps: AccountsDeps, accountId: string): Promise<AccountRow> {
  await deps.accounts.setApiKey(accountId, newApiKey());
  const row = await deps.accounts.findById(accountId);
  if (!row) throw new AppError('unauthorized', 'The account no longer exists. Sign in again.');
  return row;
}

/** The moment from which tokens are refused: the next millisecond, so "until now" includes now. */
function revokeFrom(deps: AccountsDeps): number {
  return deps.now().getTime() + 1;
}

/**
 * A new password; every other token of the account stops working, and with
 * `rotateSigningSecret` the signing secret is replaced at once. Answers the new token's
 * validity start.
 */
export async function changePassword(
  deps: PasswordDeps & { signingSecrets: Pick<SigningSecrets, 'rotate'> },
  account: AccountRow,
  input: { currentPassword: string; newPassword: string; rotateSigningSecret?: boolean },
  clientIp: string,
): Promise<number> {
  checkPassword(input.newPassword);
  await confirmPassword(deps, account, input.currentPassword, clientIp);
  const passwordHash = await hashPassword(deps, input.newPassword);
  const validAfter = revokeFrom(deps);
  await deps.accounts.setPassword(account.id, passwordHash, validAfter);
  if (input.rotateSigningSecret) await deps.signingSecrets.rotate(account.id, { endOverlap: true });
  return validAfter;
}

/** Operator reset: a new password, and the account signed out everywhere. */
export async function resetPassword(deps: AccountsDeps, email: string, password: string): Promise<AccountRow> {
  checkPassword(password);
  const row = await operatorFind(deps, email);
  await deps.accounts.setPassword(row.id, await hashPassword(deps, password), revokeFrom(deps));
  return row;
}

/** Operator deletion: the account and everything it owns, no password asked. */
export async function removeAccount(deps: AccountsDeps, email: string): Promise<AccountRow> {
  const row = await operatorFind(deps, email);
  await deps.accounts.delete(row.id);
  return row;
}

async function operatorFind(deps: AccountsDeps, email: string): Promise<AccountRow> {
  const row = await deps.accounts.findByEmail(normaliseEmail(email));
  if (!row) throw new AppError('not_found', `No account has the email ${email}.`);
  return row;
}

/**
 * Signs the account out everywhere: every token issued until now stops working. With
 * `rotateSigningSecret` (a leaked session may have read it) the signing secret is
 * replaced first and ends at once, which needs a fresh session or the password.
 */
export async function signOutEverywhere(
  deps: AccountsDeps & SecretAccessDeps & { signingSecrets: Pick<SigningSecrets, 'rotate'> },
  session: { account: AccountRow; tokenIssuedAt: number },
  input: { rotateSigningSecret?: boolean; password?: string } | null | undefined,
  clientIp: string,
): Promise<void> {
  if (input?.rotateSigningSecret) {
    await confirmSecretAccess(deps, session, input.password, clientIp, 'Replacing the signing secret');
    await deps.signingSecrets.rotate(session.account.id, { endOverlap: true });
  }
  await deps.accounts.revokeTokens(session.account.id, revokeFrom(deps));
}

/** Deletes the account and everything it owns, after the password is confirmed. */
export async function deleteAccount(
  deps: PasswordDeps,
  account: AccountRow,
  password: string,
  clientIp: string,
): Promise<void> {
  await confirmPassword(deps, account, password, clientIp);
  await deps.accounts.delete(account.id);
}

function hashPassword(deps: AccountsDeps, password: string): Promise<string> {
  return (deps.passwords ?? directPasswords).run((argon2) => argon2.hash(password));
}
