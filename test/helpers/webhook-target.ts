/**
 * Real loopback HTTP servers for webhook tests: each one counts its hits and records
 * what it received, so a test can prove that a blocked target was never contacted.
 * On Linux all of 127/8 routes to `lo`, so 127.0.0.2, 127.0.0.3, … are usable binds.
 */
interface RecordedRequest {
  method: string;
  /** Path and query as received. */
  path: string;
  headers: Record<string, string>;
}

export interface TargetServer {
  hostname: string;
  port: number;
  /** `http://<hostname>:<port><path>` */
  url(path?: string): string;
  /** Number of requests that reached the handler. */
  readonly hits: number;
  requests: RecordedRequest[];
  stop(): Promise<void>;
}

export type TargetHandler = (request: Request) => Response | Promise<Response>;

const json = (): Response => Response.json({ ok: true });

/** Starts a server on `hostname` (port 0 unless given) that records every request. */
export function startTarget(hostname: string, handler: TargetHandler = json, port = 0): TargetServer {
  const requests: RecordedRequest[] = [];
  const server = Bun.serve({
    hostname,
    port,
    // Deliberately slow targets hold requests open for seconds.
    idleTimeout: 0,
    fetch(request) {
      const url = new URL(request.url);
      requests.push({
        method: request.method,
        path: url.pathname + url.search,
        headers: Object.fromEntries(request.headers),
      });
      return handler(request);
    },
  });
  const boundPort = server.port ?? port;
  return {
    hostname,
    port: boundPort,
    url: (path = '/') => `http://${hostname}:${boundPort}${path}`,
    get hits() {
      return requests.length;
    },
    requests,
    stop: () => server.stop(true),
  };
}

/**
 * Starts one server on each of two loopback addresses with the same port (for DNS
 * rebinding tests, where only the address may differ). Retries with new ports when
 * the second address's port is taken.
 */
export function startTargetPair(
  first: { hostname: string; handler?: TargetHandler },
  second: { hostname: string; handler?: TargetHandler },
): [TargetServer, TargetServer] {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const a = startTarget(first.hostname, first.handler);
    try {
      return [a, startTarget(second.hostname, second.handler, a.port)];
    } catch {
      void a.stop();
    }
  }
  throw new Error('could not bind two servers on the same port');
}

/** A port on `hostname` that nothing listens on (bound once, then closed). */
export async function closedPort(hostname: string): Promise<number> {
  const target = startTarget(hostname);
  await target.stop();
  return target.port;
}
