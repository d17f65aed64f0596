import { createApp } from './app.ts';
import { WEBHOOK_MAX_IN_FLIGHT, type ServerConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { createLogger, type Logger } from './logger.ts';
import { seedDemo, type DemoCredentials } from './modules/pages/demo.ts';
import { periodOf } from './usage/counter.ts';
import { loadOrCreateSecret } from './secrets.ts';

export interface RunningServer {
  /** `http://HOST:PORT` the server listens on. */
  listenUrl: string;
  /** The base URL for embed snippets: the operator's public URL, else the listen URL. */
  url: string;
  demo: DemoCredentials | null;
  /** Stops accepting, lets in-flight requests finish, flushes counters, closes the store. */
  stop(): Promise<void>;
}

const FLUSH_INTERVAL_MS = 1000;

/** `calc serve`: config → open db (migrations embedded) → app → listen. */
export async function startServer(config: ServerConfig, logger: Logger = createLogger()): Promise<RunningServer> {
  const database = openDatabase(config.dataDir);
  const jwtSecret = config.jwtSecret ?? loadOrCreateSecret(config.dataDir, 'jwt-secret');
  if (config.webhookAllowCidrs.length > 0) {
    logger.warn(
      'CALC_WEBHOOK_ALLOW_CIDRS is set: webhooks may reach these non-public ranges. Use this for tests and local development only.',
      {
        cidrs: config.webhookAllowCidrs,
      },
    );
  }
  if (config.webhookMaxInFlight < WEBHOOK_MAX_IN_FLIGHT) {
    logger.warn(
      `Webhook calls in flight are capped at ${config.webhookMaxInFlight} because Bun's HTTP client runs that many at once; start with BUN_CONFIG_MAX_HTTP_REQUESTS=1024 to allow ${WEBHOOK_MAX_IN_FLIGHT}.`,
    );
  }
  let listenUrl = '';
  const headerKey = loadOrCreateSecret(config.dataDir, 'webhook-key');
  const { app, usage, accounts, domains, signingSecrets, flush, retention } = createApp({
    config,
    database,
    jwtSecret,
    headerKey,
    logger,
    fallbackPublicUrl: () => listenUrl,
  });
  app.listen({ hostname: config.host, port: config.port, maxRequestBodySize: 1024 * 1024 });
  const server = app.server;
  if (!server) throw new Error('the server did not start');
  listenUrl = `http://${server.hostname?.includes(':') ? `[${server.hostname}]` : server.hostname}:${server.port}`;

  const demo = config.demo
    ? await seedDemo(
        { accounts, domains, signingSecrets, now: () => new Date() },
        demoOrigins(config.publicUrl ?? listenUrl),
      )
    : null;

  const flushTimer = setInterval(() => {
    try {
      flush();
      usage.prune(periodOf(new Date()));
    } catch (error) {
      logger.error('flush of usage counters and webhook outcomes failed; will retry', { error: String(error) });
    }
    try {
      retention.run();
    } catch (error) {
      logger.error('pruning per-day usage past retention failed; will retry within the hour', {
        error: String(error),
      });
    }
  }, FLUSH_INTERVAL_MS);

  let stopping: Promise<void> | null = null;
  return {
    listenUrl,
    url: config.publicUrl ?? listenUrl,
    demo,
    stop: () =>
      (stopping ??= (async () => {
        clearInterval(flushTimer);
        await app.stop(false);
        flush();
        database.close();
      })()),
  };
}

/** The demo page's origin, plus its localhost twin so either address works in a browser. */
function demoOrigins(baseUrl: string): string[] {
  const url = new URL(baseUrl);
  const origins = [url.origin];
  if (url.hostname === '127.0.0.1') origins.push(`${url.protocol}//localhost${url.port ? `:${url.port}` : ''}`);
  return origins;
}
