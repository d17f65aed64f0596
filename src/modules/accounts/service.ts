import type { Plan } from '../../config.ts';
import type { AccountRow, AccountsStore } from '../../db/accounts-store.ts';
import { AppError, invalidRequest, rateLimited } from '../../errors.ts';
import { newAccountId, newApiKey } from '../../secrets.ts';
import type { SigningSecrets } from '../signing-secret/service.ts';
import type { LoginLimiter } from './login-limiter.ts';
import type { AccountJson } from './model.ts';

export interface AccountsDeps {
  accounts: AccountsStore;
  now: () => Date;
}

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
  if (deps.accounts.findByEmail(email)) throw emailTaken();
  const row: AccountRow = {
    id: newAccountId(),
    email,
    passwordHash: await Bun.password.hash(input.password, { algorithm: 'argon2id' }),
    plan: input.plan ?? 'free',
    apiKey: newApiKey(),
    createdAt: deps.now().toISOString(),
  };
  // The unique index still decides when two sign-ups for one email race.
  if (!deps.accounts.insert(row)) throw emailTaken();
  deps.signingSecrets.ensure(row.id);
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
  deps: AccountsDeps & { limiter: LoginLimiter },
  input: { email: string; password: string },
  clientIp: string,
): Promise<AccountRow> {
  if (HIDDEN.test(input.email))
    throw invalidRequest('email must not contain control or invisible formatting characters.');
  const email = input.email.trim().toLowerCase();
  // Charged before the slow hash check, so a burst of parallel guesses cannot all pass
  // the limit before the first failure is counted.
  const wait = await deps.limiter.attempt(email, clientIp);
  if (wait !== null) throw rateLimited('Too many failed sign-ins from this address.', wait);
  const row = deps.accounts.findByEmail(email);
  timingHash ??= Bun.password.hash('timing-equaliser-password', { algorithm: 'argon2id' });
  const ok = await Bun.password.verify(input.password, row?.passwordHash ?? (await timingHash));
  if (!row || !ok) throw new AppError('invalid_credentials', 'Email or password is wrong.');
  await deps.limiter.succeeded(email, clientIp);
  return row;
}

export function rotateApiKey(deps: AccountsDeps, accountId: string): AccountRow {
  deps.accounts.setApiKey(accountId, newApiKey());
  const row = deps.accounts.findById(accountId);
  if (!row) throw new AppError('unauthorized', 'The account no longer exists. Sign in again.');
  return row;
}
