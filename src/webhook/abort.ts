/**
 * Settles like `promise`, or rejects with the signal's reason as soon as the signal
 * aborts. Used so that steps which take no signal of their own (a resolver, a stream
 * read) still stop inside the one time budget.
 */
export async function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => {}); // the loser's rejection is expected; keep it handled
    throw signal.reason;
  }
  let onAbort = (): void => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  promise.catch(() => {});
  try {
    return await Promise.race([promise, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
