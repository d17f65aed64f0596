/**
 * Hooks that start browsers, servers or builds: bun's hook timeout is 5 s whatever
 * bunfig says, and a busy 2-core machine can take longer than that to start Chromium.
 */
export const HOOK_TIMEOUT_MS = 60_000;
