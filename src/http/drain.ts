import type { Server } from 'bun';
import { unavailable } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { AccessLog } from './access-log.ts';
import { closeIdleConnections } from './idle-connections.ts';
import { pathOf } from './path.ts';
import { requestIdOf } from './request-id.ts';

/** How often the drain looks whether requests in progress have finished. */
const POLL_MS = 20;

/**
 * Stops a server within a deadline (a `performance.now()` time), docs/operations.md
 * "Stopping":
 * - at once: new requests are refused (503 `not_ready`, `Connection: close`, logged),
 *   the server stops accepting, and every connection without a request in progress is
 *   closed (idle keep-alive, one that has sent nothing or part of a request head);
 * - requests in progress may finish until `deadline`; each connection closes after its
 *   answer;
 * - then every connection left is closed, and the access log says the server cut those
 *   requests (408 or 503, not the client's 499).
 * Returns how many requests were still in progress when the deadline closed them.
 */
export async function drainServer(
  server: Server<unknown>,
  deadline: number,
  deps: { accessLog: AccessLog; logger: Logger },
): Promise<number> {
  const { accessLog, logger } = deps;
  // Handlers are swapped first: a request whose head completes from here on is not started.
  server.reload({ fetch: refusal(accessLog), routes: {} });
  const busyPeers = new Set<number>();
  for (const request of accessLog.inProgress()) {
    const peer = server.requestIP(request);
    if (peer) busyPeers.add(peer.port);
  }
  // In the same turn as the stop: nothing is accepted or closed in between.
  const idle = server.port === undefined ? 0 : closeIdleConnections(server.port, busyPeers);
  if (idle > 0) logger.info(`shutdown: closed ${idle} connections without a request in progress`);
  // Stops listening; resolves only when every connection is gone.
  const closed = server.stop(false);
  let done = false;
  void closed.then(() => {
    done = true;
  });
  while (!done && server.pendingRequests > 0 && performance.now() < deadline) {
    await Bun.sleep(Math.min(POLL_MS, Math.max(0, deadline - performance.now())));
  }
  if (done) return 0;
  const cut = server.pendingRequests;
  if (cut > 0) accessLog.cutInProgress();
  await server.stop(true);
  return cut;
}

/** The answer to any request that arrives while the server stops. */
function refusal(accessLog: AccessLog): (request: Request) => Response {
  const refused = unavailable('not_ready', 'The server is shutting down; try again in a moment.');
  const body = JSON.stringify(refused.body());
  return (request) => {
    const requestId = requestIdOf(request);
    accessLog.routeWriter(request.method, pathOf(request.url))(requestId, refused.status, 0);
    return new Response(body, {
      status: refused.status,
      headers: {
        ...refused.headers,
        'content-type': 'application/json',
        connection: 'close',
        'x-request-id': requestId,
      },
    });
  };
}
