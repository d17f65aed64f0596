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
