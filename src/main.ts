import type { Server } from 'bun';
import { createApp } from './app.ts';
import { ConfigError, WEBHOOK_MAX_IN_FLIGHT, type ServerConfig } from './config.ts';
import { type DirLock, lockDataDir } from './data-dir/lock.ts';
import { serverIdOf } from './data-dir/server-id.ts';
import { type Backend, storesOf } from './db/backend.ts';
import { openDatabase } from './db/client.ts';
import { openPostgres } from './db/postgres/client.ts';
import { drainServer } from './http/drain.ts';
import { createLogger, type Logger } from './logger.ts';
import { seedDemo, type DemoCredentials } from './modules/pages/index.ts';
import { loadSecret } from './secrets.ts';
import { periodOf } from './usage/counter.ts';
import {
  applyPendingUsage,
  loadsOf,
  PENDING_FILE,
  reservePendingSpace,
  rowsOf,
  writePendingUsage,
} from './usage/pending-file.ts';

export interface RunningServer {
  /** `http://HOST:PORT` the server listens on. */
  listenUrl: string;
  /** The base URL for embed snippets: the operator's public URL, else the listen URL. */
  url: string;
  demo: DemoCredentials | null;
  /**
   * Stops accepting, lets requests in progress finish until the shutdown deadline, closes
   * the rest, flushes counters (retrying until the deadline), closes the store. Rejects
   * when counts could not be written to the database (saying where they were saved).
   */
  stop(): Promise<void>;
}

const FLUSH_INTERVAL_MS = 1000;
/** Between attempts of a failing flush at shutdown. */
const FLUSH_RETRY_MS = 250;

/**
 * `calc serve`: lock the data directory → open db (migrations embedded) → secrets →
 * counts a failed shutdown left → app → listen. Whatever fails on the way undoes the steps
 * before it.
 */
export async function startServer(config: ServerConfig, logger: Logger = createLogger()): Promise<RunningServer> {
  const lock = lockDataDir(config.dataDir);
  let database: Backend | undefined;
  try {
    // With a database URL the data directory still holds this server's lock and the
    // counts a failed shutdown could not write; the rows live in PostgreSQL.
    database = config.databaseUrl
      ? await openPostgres(config.databaseUrl, { pool: config.databasePool, widgetPool: config.databaseWidgetPool })
      : openDatabase(config.dataDir);
    return await serve(config, logger, database, lock);
  } catch (error) {
    await database?.close();
    lock.release();
    throw error;
  }
}

async function serve(config: ServerConfig, logger: Logger, database: Backend, lock: DirLock) {
  const jwtSecret = config.jwtSecret ?? loadSecret(config.dataDir, 'jwt-secret', config.regenerateSecrets);
  const headerKey = config.webhookKey ?? loadSecret(config.dataDir, 'webhook-key', config.regenerateSecrets);
  if (config.regenerateSecrets)
    logger.warn('--regenerate-secrets: any missing secret of the data directory was created anew');
  const recovered = await applyPendingUsage(config.dataDir, storesOf(database).usage.addAll);
  if (recovered > 0) {
    logger.warn(`added ${recovered} widget loads that the last shutdown could not write (${PENDING_FILE})`);
  }
  reservePendingSpace(config.dataDir);
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
  const {
    app,
    usage,
    accounts,
    domains,
    signingSecrets,
    flush,
    retention,
    ready,
    accessLog,
    delivery,
    resultsRetention,
  } = createApp({
    config,
    database,
    jwtSecret,
    headerKey,
    logger,
    fallbackPublicUrl: () => listenUrl,
    serverId: serverIdOf(config.dataDir),
  });
  await ready;
  await delivery.start();
  listen(app, config);
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
    // Sized by what one flush writes, before it does: what a failed shutdown would save.
    try {
      reservePendingSpace(config.dataDir, rowsOf(usage.deltas()));
    } catch (error) {
      logger.error(`reserving space for ${PENDING_FILE} failed; will retry`, { error: String(error) });
    }
    flush()
      .then(() => usage.prune(periodOf(new Date())))
      .catch((error: unknown) =>
        logger.error('flush of usage counters and webhook outcomes failed; will retry', { error: String(error) }),
      );
    retention.run().catch((error: unknown) =>
      logger.error('pruning per-day usage past retention failed; will retry within the hour', {
        error: String(error),
      }),
    );
    resultsRetention.run().catch((error: unknown) =>
      logger.error('deleting results past their retention failed; will retry within the hour', {
        error: String(error),
      }),
    );
  }, FLUSH_INTERVAL_MS);

  async function stop(): Promise<void> {
    const deadline = performance.now() + config.shutdownTimeoutMs;
    clearInterval(flushTimer);
    // Deliveries stop with the requests: none starts now, those in flight get the same deadline.
    const [cut, attemptsCut] = await Promise.all([
      drainServer(server as Server<unknown>, deadline, { accessLog, logger }),
      delivery.stop(deadline),
    ]);
    if (attemptsCut > 0) {
      logger.warn(
        `shutdown deadline reached: ${attemptsCut} deliveries still in flight are attempted again at the next start`,
      );
    }
    if (cut > 0) {
      logger.warn(`shutdown deadline reached: closed ${cut} requests still in progress`, {
        timeoutMs: config.shutdownTimeoutMs,
      });
    }
    try {
      await flushUntil(flush, deadline, logger);
    } catch (error) {
      const deltas = usage.deltas();
      const loads = loadsOf(deltas);
      let file: string | null = null;
      try {
        if (rowsOf(deltas) > 0) file = writePendingUsage(config.dataDir, deltas, new Date());
      } catch (writeError) {
        logger.error(`could not write ${PENDING_FILE}: ${loads} widget loads are lost`, { error: String(writeError) });
      }
      throw new Error(
        file
          ? `the database could not be written at shutdown (${String(error)}); ${loads} widget loads were saved to ${file} and the next start adds them`
          : `the database could not be written at shutdown (${String(error)})${loads > 0 ? `; ${loads} widget loads are lost` : ''}`,
      );
    } finally {
      await database.close();
      lock.release();
    }
  }

  let stopping: Promise<void> | null = null;
  return {
    listenUrl,
    url: config.publicUrl ?? listenUrl,
    demo,
    stop: () => (stopping ??= stop()),
  };
}

/** Listens without sharing the port (`reusePort` off): a second server on it fails instead of splitting traffic. */
function listen(app: ReturnType<typeof createApp>['app'], config: ServerConfig): void {
  try {
    app.listen({
      hostname: config.host,
      port: config.port,
      maxRequestBodySize: 1024 * 1024,
      reusePort: false,
      // Elysia asks Bun for development mode unless NODE_ENV=production: its error pages
      // and on-demand bundling have no place in a server that faces the internet.
      development: false,
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new ConfigError(
        `Port ${config.port} on ${config.host} is in use: another process listens there. Stop it or choose another --port.`,
      );
    }
    throw error;
  }
}

/** Flushes, retrying a failure every FLUSH_RETRY_MS until `deadline`; at least one attempt. */
async function flushUntil(flush: () => void | Promise<void>, deadline: number, logger: Logger): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await flush();
      return;
    } catch (error) {
      if (performance.now() + FLUSH_RETRY_MS > deadline) throw error;
      logger.error('flush at shutdown failed; retrying until the shutdown deadline', {
        attempt,
        error: String(error),
      });
      await Bun.sleep(FLUSH_RETRY_MS);
    }
  }
}

/** The demo page's origin, plus its localhost twin so either address works in a browser. */
function demoOrigins(baseUrl: string): string[] {
  const url = new URL(baseUrl);
  const origins = [url.origin];
  if (url.hostname === '127.0.0.1') origins.push(`${url.protocol}//localhost${url.port ? `:${url.port}` : ''}`);
  return origins;
}
