import type { ErrorCode } from '../errors.ts';

/**
 * The refusals of widget calls made with an owner's valid key that the owner's usage
 * counts (docs/api.md, "Usage history"): visitors turned away by a limit, by the quota or
 * because their page is not (yet) on the domain list. Other refusals (an unknown key, an
 * unknown calculator, a malformed body) name nothing the owner has.
 */
export const REFUSAL_REASONS = [
  'rate_limited',
  'cap_reached',
  'quota_exceeded',
  'domain_not_registered',
  'domain_pending',
  'origin_mismatch',
] as const satisfies readonly ErrorCode[];

export type RefusalReason = (typeof REFUSAL_REASONS)[number];

const COUNTED: ReadonlySet<string> = new Set(REFUSAL_REASONS);

/** Whether usage counts a refusal with this code. */
export const isCountedRefusal = (code: ErrorCode): code is RefusalReason => COUNTED.has(code);
