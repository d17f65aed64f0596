/**
 * An owner's results endpoint for tests: a real HTTP server on 127.0.0.2 (allowlisted, as
 * the pull's targets are) that records each delivery's headers and body and answers what
 * the test says.
 */
export interface Received {
  headers: Record<string, string>;
  body: string;
}

export type ReceiverHandler = (received: Received, request: Request) => Response | Promise<Response>;

const accepted = () => new Response('{"received":true}', { headers: { 'content-type': 'application/json' } });

export function startReceiver(handler: ReceiverHandler = accepted, hostname = '127.0.0.2') {
  const received: Received[] = [];
  const waiters = new Set<() => void>();
  let answer = handler;
  const server = Bun.serve({
    hostname,
    port: 0,
    idleTimeout: 0,
    async fetch(request) {
      const entry = { headers: Object.fromEntries(request.headers), body: await request.text() };
      received.push(entry);
      for (const wake of waiters) wake();
      return answer(entry, request);
    },
  });
  return {
    url: (path = '/events') => `http://${hostname}:${server.port}${path}`,
    received,
    /** The ids (`webhook-id`) received so far, in order. */
    ids: () => received.map((entry) => entry.headers['webhook-id'] ?? ''),
    /** Answers later deliveries with `next` instead. */
    answerWith(next: ReceiverHandler) {
      answer = next;
    },
    /** Resolves once `count` deliveries have arrived (rejects after `timeoutMs`). */
    async waitFor(count: number, timeoutMs = 10_000): Promise<Received[]> {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`${received.length} deliveries arrived, not ${count}`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(wake, left);
          waiters.add(wake);
        });
      }
      return received;
    },
    stop: () => server.stop(true),
  };
}

export type Receiver = ReturnType<typeof startReceiver>;
