/**
 * Webhook target process for bench/webhook.ts (run pinned next to wrk, away from the
 * server under test). Listens on an allowlisted loopback address (default 127.0.0.2,
 * port 0) and prints `http://HOST:PORT` once listening.
 *
 *  GET /prefill  answers a small JSON object at once (bmi field values)
 *  GET /hang     never answers; the request is held until the caller gives up
 *  GET /stats    {prefill, hang, open}: hits per route and hanging requests still open
 *
 * Usage: bun bench/webhook-target.ts [hostname]
 */
const hostname = process.argv[2] ?? '127.0.0.2';
const PREFILL_BODY = { weightKg: 72.5, heightCm: 180 };

const prefillText = JSON.stringify(PREFILL_BODY);
const stats = { prefill: 0, hang: 0, open: 0 };

const server = Bun.serve({
  hostname,
  port: 0,
  // Hanging requests stay open for seconds: never close them for idleness.
  idleTimeout: 0,
  fetch(request) {
    const path = new URL(request.url).pathname;
    if (path === '/prefill') {
      stats.prefill += 1;
      return new Response(prefillText, { headers: { 'content-type': 'application/json' } });
    }
    if (path === '/hang') {
      stats.hang += 1;
      stats.open += 1;
      // Settles only when the caller aborts, so nothing is kept after the episode.
      return new Promise<Response>((resolve) => {
        request.signal.addEventListener(
          'abort',
          () => {
            stats.open -= 1;
            resolve(new Response(null, { status: 499 }));
          },
          { once: true },
        );
      });
    }
    if (path === '/stats') return Response.json(stats);
    return new Response('not found', { status: 404 });
  },
});

process.stdout.write(`webhook target on http://${hostname}:${server.port}\n`);
process.on('SIGTERM', () => {
  void server.stop(true);
  process.exit(0);
});
