/**
 * A registered origin is active (its pages may embed the account's widgets) or pending
 * (a page asked for it with the public key; the owner has not approved it yet).
 */
export const DOMAIN_STATUSES = ['active', 'pending'] as const;

/**
 * The pending requests one account may hold: the key is public, so without a cap a
 * stranger could fill the owner's list.
 */
export const MAX_PENDING_DOMAINS = 20;

/**
 * A pending request expires this long after it was made: it is no longer listed, no
 * longer counts towards the cap, a page on its origin is treated as unregistered, and
 * asking again makes a new request (the housekeeping timer deletes expired rows).
 */
export const PENDING_TTL_MS = 7 * 86_400_000;

let cutoff = { second: Number.NaN, before: '' };

/**
 * The creation time (ISO-8601) at or before which a pending request has expired at `now`.
 * Every widget call asks, so the answer is kept for the second.
 */
export function pendingCutoff(now: Date): string {
  const second = Math.floor(now.getTime() / 1000);
  if (second !== cutoff.second) cutoff = { second, before: new Date(second * 1000 - PENDING_TTL_MS).toISOString() };
  return cutoff.before;
}

/** Whether a stored row still counts at `now`: active, or pending and not expired. */
export function isLive(row: { status: (typeof DOMAIN_STATUSES)[number]; createdAt: string }, now: Date): boolean {
  return row.status === 'active' || row.createdAt > pendingCutoff(now);
}
