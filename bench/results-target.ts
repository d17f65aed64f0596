/**
 * A results endpoint process for bench/results.ts (run pinned next to wrk, away from the
 * server under test). Listens on an allowlisted loopback address (default 127.0.0.2, port
 * 0), answers 204 to every POST and prints `http://HOST:PORT` once listening.
 *
 *  POST /events  counts the delivery (and the distinct webhook-ids), answers 204
 *  GET  /stats   {deliveries, distinct}
 *
 * Usage: bun bench/results-target.ts [hostname]
 */
const hostname = process.argv[2] ?? '127.0.0.2';
const ids = new Set<string>();
let deliveries = 0;

const server = Bun.serve({
  hostname,
  port: 0,
  async fetch(request) {
    if (request.method === 'POST') {
      await request.arrayBuffer();
      deliveries += 1;
      ids.add(request.headers.get('webhook-id') ?? '');
      return new Response(null, { status: 204 });
    }
    if (new URL(request.url).pathname === '/stats') return Response.json({ deliveries, distinct: ids.size });
    return new Response('not found', { status: 404 });
  },
});

process.stdout.write(`results endpoint on http://${hostname}:${server.port}\n`);
process.on('SIGTERM', () => {
  void server.stop(true);
  process.exit(0);
});

// A module, so that its names stay its own.
export {};
