import type { DomainRow, DomainsStore } from '../../db/domains-store.ts';
import { AppError } from '../../errors.ts';
import type { DomainJson } from './model.ts';
import { matchingOrigins, normaliseOrigin } from '../../domains/origin.ts';
import { isLive, MAX_PENDING_DOMAINS, pendingCutoff } from '../../domains/status.ts';

export interface DomainsDeps {
  domains: DomainsStore;
  now: () => Date;
}

const toJson = (row: DomainRow): DomainJson => ({ domain: row.origin, status: row.status, createdAt: row.createdAt });

export async function listDomains(deps: DomainsDeps, accountId: string): Promise<DomainJson[]> {
  const now = deps.now();
  return (await deps.domains.list(accountId)).filter((row) => isLive(row, now)).map(toJson);
}

type TransactionStore = Parameters<Parameters<DomainsStore['transaction']>[0]>[0];

/**
 * The stored row for an origin, unless it is a pending request that has expired: that one
 * is deleted (the housekeeping timer would delete it soon anyway) and counts as absent.
 */
async function liveRow(
  domains: TransactionStore,
  accountId: string,
  origin: string,
  now: Date,
): Promise<DomainRow | undefined> {
  const row = await domains.find(accountId, origin);
  if (!row || isLive(row, now)) return row;
  await domains.remove(accountId, origin);
  return undefined;
}

/** Owner adds (or approves) an origin. `created` tells 201 from 200. */
export function addDomain(
  deps: DomainsDeps,
  accountId: string,
  raw: string,
): Promise<{ domain: DomainJson; created: boolean }> {
  const { origin } = normaliseOrigin(raw);
  return deps.domains.transaction(async (domains) => {
    const existing = await liveRow(domains, accountId, origin, deps.now());
    if (existing?.status === 'active') return { domain: toJson(existing), created: false };
    if (existing) {
      await domains.activate(accountId, origin);
      return { domain: toJson({ ...existing, status: 'active' }), created: true };
    }
    const row: DomainRow = { accountId, origin, status: 'active', createdAt: deps.now().toISOString() };
    await domains.insert(row);
    return { domain: toJson(row), created: true };
  });
}

export function removeDomain(deps: DomainsDeps, accountId: string, raw: string): Promise<DomainJson> {
  const { origin } = normaliseOrigin(raw);
  return deps.domains.transaction(async (domains) => {
    const existing = await liveRow(domains, accountId, origin, deps.now());
    if (!existing || !(await domains.remove(accountId, origin))) {
      throw new AppError('domain_not_found', `${origin} is not registered for this account.`);
    }
    return toJson(existing);
  });
}

/**
 * A page asks for its origin to be registered. The API key is public, so this only
 * records a pending request that the owner approves; the cap keeps a stranger with the
 * key from filling the owner's list.
 */
export function requestDomain(deps: DomainsDeps, accountId: string, origin: string): Promise<DomainJson> {
  return deps.domains.transaction(async (domains) => {
    const now = deps.now();
    const existing = await liveRow(domains, accountId, origin, now);
    if (existing) return toJson(existing);
    // Already allowed through an active wildcard: nothing to ask for.
    if ((await originStatus({ domains }, accountId, origin)) === 'active')
      return { domain: origin, status: 'active', createdAt: now.toISOString() };
    if ((await domains.countPending(accountId, pendingCutoff(now))) >= MAX_PENDING_DOMAINS) {
      throw new AppError(
        'too_many_pending_domains',
        `This account already has ${MAX_PENDING_DOMAINS} pending domain requests; the owner must approve or remove some first.`,
      );
    }
    const row: DomainRow = { accountId, origin, status: 'pending', createdAt: now.toISOString() };
    await domains.insert(row);
    return toJson(row);
  });
}

/** How the widget routes see an origin: active (exactly or by wildcard), pending, or unknown. */
async function originStatus(
  deps: { domains: Pick<DomainsStore, 'status'> },
  accountId: string,
  origin: string,
): Promise<'active' | 'pending' | 'none'> {
  let pending = false;
  for (const candidate of matchingOrigins(origin)) {
    const status = await deps.domains.status(accountId, candidate);
    if (status === 'active') return 'active';
    if (status === 'pending') pending = true;
  }
  return pending ? 'pending' : 'none';
}
