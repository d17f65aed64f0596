import { type AccountCreationDeps, createAccount } from '../accounts/index.ts';
import { addDomain, type DomainsDeps } from '../domains/index.ts';
import { randomBase62 } from '../../secrets.ts';

export const DEMO_EMAIL = 'demo@calc.example';

export interface DemoCredentials {
  email: string;
  password: string;
  apiKey: string;
  origins: string[];
}

/**
 * Seeds, on an empty database only, a demo account on the Extra plan whose page origins
 * are registered, so the demo page works at once. Returns null when anything exists.
 */
export async function seedDemo(
  deps: AccountCreationDeps & DomainsDeps,
  origins: string[],
): Promise<DemoCredentials | null> {
  if ((await deps.accounts.count()) > 0) return null;
  const password = randomBase62(20);
  const account = await createAccount(deps, { email: DEMO_EMAIL, password, plan: 'extra' });
  const added: string[] = [];
  for (const origin of new Set(origins)) added.push((await addDomain(deps, account.id, origin)).domain.domain);
  return { email: DEMO_EMAIL, password, apiKey: account.apiKey, origins: added };
}
