/**
 * Shared pieces of the guarded-fetch tests: the allowlisted policy, a counting
 * resolver, a default set of dependencies and target servers stopped after each test.
 */
import { afterEach } from 'bun:test';
import { createAddressPolicy } from '../../../src/webhook/address-policy.ts';
import type { GuardedFetchDeps } from '../../../src/webhook/guarded-fetch.ts';
import type { Resolver } from '../../../src/webhook/url-check.ts';
import { startTarget, type TargetServer } from '../../helpers/webhook-target.ts';

/** The address the test targets listen on; the rest of loopback stays blocked. */
export const ALLOWED = '127.0.0.2';
const policy = createAddressPolicy({ allowCidrs: [`${ALLOWED}/32`] });
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

/**
 * Starts target servers that are stopped after each test: `const target = trackedTargets();`
 * at the top of a test file, then `target(hostname, handler)` in its tests;
 * `target.track(server)` adopts servers started another way.
 */
export function trackedTargets() {
  const started: TargetServer[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((server) => server.stop()));
  });
  const start = (...args: Parameters<typeof startTarget>): TargetServer => {
    const server = startTarget(...args);
    started.push(server);
    return server;
  };
  return Object.assign(start, { track: (...servers: TargetServer[]) => void started.push(...servers) });
}
