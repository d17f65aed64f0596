import type { Static } from 'elysia';
import type { AccountRow, AccountsStore, OwnerLimitColumns } from '../../db/accounts-store.ts';
import type { Limits, LimitsRequest } from './model.ts';

/** The owner's limits as the API shows them. */
export function limitsOf(account: AccountRow): Static<typeof Limits> {
  return {
    loadsPerDay: account.loadsPerDay,
    loadsPerDayPerDomain: account.loadsPerDayPerDomain,
    pullsPerSecond: account.pullsPerSecond,
    registerDomain: account.registerDomain !== 0,
  };
}

/**
 * `PUT /v1/account/limits`: sets the fields the request names and leaves the others as
 * they are; answers the limits now in force. They apply from the next widget call: the
 * account row, which holds them, is read on every call.
 */
export async function setLimits(
  deps: { accounts: Pick<AccountsStore, 'setLimits'> },
  account: AccountRow,
  request: Static<typeof LimitsRequest>,
): Promise<Static<typeof Limits>> {
  const columns: OwnerLimitColumns = {};
  if (request.loadsPerDay !== undefined) columns.loadsPerDay = request.loadsPerDay;
  if (request.loadsPerDayPerDomain !== undefined) columns.loadsPerDayPerDomain = request.loadsPerDayPerDomain;
  if (request.pullsPerSecond !== undefined) columns.pullsPerSecond = request.pullsPerSecond;
  if (request.registerDomain !== undefined) columns.registerDomain = request.registerDomain === false ? 0 : 1;
  if (Object.keys(columns).length > 0) await deps.accounts.setLimits(account.id, columns);
  return limitsOf({ ...account, ...columns });
}
