/**
 * Shared pieces of the guarded-fetch tests: the allowlisted policy, a counting
 * resolver and a default set of dependencies.
 */
import { createAddressPolicy } from '../../../src/webhook/address-policy.ts';
import type { GuardedFetchDeps } from '../../../src/webhook/guarded-fetch.ts';
import type { Resolver } from '../../../src/webhook/url-check.ts';

/** The address the test targets listen on; the rest of loopback stays blocked. */
export const ALLOWED = '127.0.0.2';
export const policy = createAddressPolicy({ allowCidrs: [`${ALLOWED}/32`] });
export const USER_AGENT = 'calc-webhook/test';

export type CountingResolver = Resolver & { calls: string[] };

/** Answers from a table (each entry a list of answers, served in turn) and counts calls. */
export function countingResolver(table: Record<string, string[][]>): CountingResolver {
  const calls: string[] = [];
  const served = new Map<string, number>();
  const resolve = async (hostname: string): Promise<string[]> => {
    calls.push(hostname);
    const answers = table[hostname];
    if (answers === undefined) throw new Error(`ENOTFOUND ${hostname}`);
    const index = served.get(hostname) ?? 0;
    served.set(hostname, index + 1);
    return answers[Math.min(index, answers.length - 1)] ?? [];
  };
  return Object.assign(resolve, { calls });
}

/** Dependencies for guardedFetch with a short budget unless overridden. */
export function deps(overrides: Partial<GuardedFetchDeps> = {}): GuardedFetchDeps {
  return {
    resolve: countingResolver({}),
    policy,
    timeoutMs: 300,
    userAgent: USER_AGENT,
    ...overrides,
  };
}
