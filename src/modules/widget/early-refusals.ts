import type { AccountsStore } from '../../db/accounts-store.ts';
import type { Logger } from '../../logger.ts';
import type { RefusalReason } from '../../usage/refusals.ts';
import { countEarlyRefusal, type WidgetDeps } from './service.ts';

/** How long a key's owner (or its absence) is remembered for refusals. */
const REMEMBER_MS = 60_000;
/** Keys remembered at once; past it, a refusal under a key not remembered is not counted. */
const MAX_KEYS = 1_000;

interface Owner {
  /** The key's account id; null for an unknown key; undefined while it is looked up. */
  accountId: string | null | undefined;
  until: number;
  lookup?: Promise<void>;
}

/**
 * Counts widget calls refused before the key was looked up (the per-client limit runs
 * first, so a flood costs no lookups) in the usage of the key's owner. The key is looked
 * up after the refusal is answered, at most once a minute per key, and at most 1,000 keys
 * are remembered: a stream of refused calls under made-up keys costs at most 1,000
 * lookups a minute, and a refusal under yet another key meanwhile is not counted.
 */
export function createEarlyRefusals(
  deps: Pick<WidgetDeps, 'usage' | 'now' | 'calculatorIds'> & { accounts: AccountsStore; logger: Logger },
) {
  const owners = new Map<string, Owner>();

  function ownerOf(apiKey: string, now: number): Owner | undefined {
    const known = owners.get(apiKey);
    if (known && known.until > now) return known;
    if (known) owners.delete(apiKey);
    if (owners.size >= MAX_KEYS) for (const [key, owner] of owners) if (owner.until <= now) owners.delete(key);
    if (owners.size >= MAX_KEYS) return undefined;
    const owner: Owner = { accountId: undefined, until: now + REMEMBER_MS };
    owner.lookup = deps.accounts.findByApiKey(apiKey).then(
      (account) => {
        owner.accountId = account?.id ?? null;
        owner.lookup = undefined;
      },
      (error: unknown) => {
        owners.delete(apiKey);
        deps.logger.warn('a refused widget call could not be counted: the key lookup failed', {
          error: String(error),
        });
      },
    );
    owners.set(apiKey, owner);
    return owner;
  }

  return (request: { apiKey: string; calcId: string }, reason: RefusalReason): void => {
    if (!request.apiKey.startsWith('pk_')) return;
    const owner = ownerOf(request.apiKey, deps.now().getTime());
    if (!owner) return;
    const count = () => {
      if (owner.accountId) countEarlyRefusal(deps, owner.accountId, request.calcId, reason);
    };
    if (owner.lookup) void owner.lookup.then(count);
    else count();
  };
}
