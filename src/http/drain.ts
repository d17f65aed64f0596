import type { Server } from 'bun';

/** How often the drain looks whether requests in progress have finished. */
const POLL_MS = 20;

/**
 * Stops a server within a deadline: it stops accepting at once; requests in progress may
 * finish until `deadline` (a `performance.now()` time); then every connection left is
 * closed. A connection with no request in progress (idle keep-alive, or one that has sent
 * nothing or only part of its headers) never holds the exit. Returns how many requests
 * were still in progress when the deadline closed them.
 */
export async function drainServer(server: Server<unknown>, deadline: number): Promise<number> {
  // Stops listening; resolves only when every connection is gone, which a silent
  // client could put off for the idle timeout.
  const closed = server.stop(false);
  let done = false;
  void closed.then(() => {
    done = true;
  });
  while (!done && server.pendingRequests > 0 && performance.now() < deadline) {
    await Bun.sleep(Math.min(POLL_MS, Math.max(0, deadline - performance.now())));
  }
  const cut = done ? 0 : server.pendingRequests;
  if (!done) await server.stop(true);
  return cut;
}
