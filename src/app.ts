import type { Database } from 'bun:sqlite';
import { Elysia } from 'elysia';
import type { ServerConfig } from './config.ts';
import type { OpenDatabase } from './db/client.ts';
import { createAccountsStore } from './db/accounts-store.ts';
import { createDomainsStore } from './db/domains-store.ts';
import { createUsageStore } from './db/usage-store.ts';
import { createWidgetConfigStore } from './db/widget-config-store.ts';
import { AppError, errorBody } from './errors.ts';
import { declaredTooLarge, parseJsonBody, payloadTooLarge } from './http/body.ts';
import { createClientIpResolver } from './http/client-ip.ts';
import { docsModule } from './http/docs.ts';
import { createRequestLog } from './http/request-log.ts';
import { createLogger, type Logger } from './logger.ts';
import { accountsModule } from './modules/accounts/index.ts';
import { createLoginLimiter } from './modules/accounts/login-limiter.ts';
import { createTokenService } from './modules/accounts/tokens.ts';
import { calculatorsModule } from './modules/calculators/index.ts';
import { domainsModule } from './modules/domains/index.ts';
import { healthModule } from './modules/health/index.ts';
import { pagesModule } from './modules/pages/index.ts';
import { widgetModule, type Prefill } from './modules/widget/index.ts';
import { createHeaderCipher } from './modules/widget-config/header-cipher.ts';
import { widgetConfigModule } from './modules/widget-config/index.ts';
import { pullWebhook, type PullDeps } from './modules/widget-config/pull.ts';
import { createStatusLog } from './modules/widget-config/status-log.ts';
import { widgetScriptModule } from './modules/widget-script/index.ts';
import { createUsageCounter } from './usage/counter.ts';
import { createAddressPolicy } from './webhook/address-policy.ts';
import { createInFlightLimiter } from './webhook/in-flight.ts';
import { systemResolver, type Resolver } from './webhook/url-check.ts';
import pkg from '../package.json' with { type: 'json' };

export interface AppOptions {
  config: ServerConfig;
  database: OpenDatabase;
  jwtSecret: Uint8Array | string;
  /** 32 bytes: encrypts webhook header values at rest. */
  headerKey: Uint8Array;
  /** The webhook guard's DNS lookup (tests pass their own) and time budget. */
  resolve?: Resolver;
  webhookTimeoutMs?: number;
  now?: () => Date;
  logger?: Logger;
  /** Replaces the webhook pull as the source of pre-fill values (widget tests). */
  prefill?: Prefill;
  /** The base URL when the operator gave none (the listen address, known after listen). */
  fallbackPublicUrl?: () => string;
}

/** Paths that third-party pages call from any origin: access is decided by the domain check. */
const PUBLIC_CORS = /^\/(v1\/widget\/|v1\/calculators(\/|$)|widget\.js$)/;

/**
 * Builds the HTTP application from its dependencies; never listens. Tests call
 * `app.handle(new Request(…))` on it; `calc serve` calls `listen`.
 */
export function createApp(options: AppOptions) {
  const { config } = options;
  const now = options.now ?? (() => new Date());
  const logger = options.logger ?? createLogger();
  const accounts = createAccountsStore(options.database.db);
  const domains = createDomainsStore(options.database.db);
  const usage = createUsageCounter(createUsageStore(options.database.db));
  const tokens = createTokenService(options.jwtSecret, config.jwtLifetimeSeconds, now);
  const limiter = createLoginLimiter({ now: () => now().getTime() });
  const requestLog = createRequestLog(logger);
  const resolveClientIp = createClientIpResolver(config.trustProxy);
  const publicUrl = () => config.publicUrl ?? options.fallbackPublicUrl?.() ?? `http://${config.host}:${config.port}`;
  const configs = createWidgetConfigStore(options.database.db);
  const statusLog = createStatusLog(configs);
  const webhook: PullDeps = {
    configs,
    cipher: createHeaderCipher(options.headerKey),
    statusLog,
    limiter: createInFlightLimiter({ perAccount: 8, total: 512 }),
    resolve: options.resolve ?? systemResolver,
    policy: createAddressPolicy({ allowCidrs: [...config.webhookAllowCidrs] }),
    logger,
    now,
    userAgent: `calc-webhook/${pkg.version} (+${config.publicUrl ?? 'self-hosted'})`,
    timeoutMs: options.webhookTimeoutMs,
  };
  const prefill: Prefill = options.prefill ?? (async (account, calculator) => (await pullWebhook(webhook, account, calculator)).values);
  // The peer address is known to the server only once it listens.
  let peerOf = (_request: Request): string | undefined => undefined;
  const clientIp = (request: Request): string => resolveClientIp(peerOf(request), request.headers.get('x-forwarded-for'));

  // 'typebox' normalisation: the default mirror turns a non-object where an object of
  // optional fields is expected into {} (so `{"config": "x"}` would remove a webhook).
  const app = new Elysia({ normalize: 'typebox' })
    .onRequest(({ request, set }) => {
      set.headers['x-request-id'] = requestLog.start(request);
      const path = new URL(request.url).pathname;
      if (PUBLIC_CORS.test(path)) {
        set.headers['access-control-allow-origin'] = '*';
        if (request.method === 'OPTIONS') {
          set.headers['access-control-allow-methods'] = 'GET, POST, OPTIONS';
          set.headers['access-control-allow-headers'] = 'Content-Type';
          set.headers['access-control-max-age'] = '86400';
          set.status = 204;
          return new Response(null, { status: 204, headers: set.headers as Record<string, string> });
        }
      }
      if (declaredTooLarge(request)) {
        set.status = 413;
        return payloadTooLarge().body();
      }
    })
    .onParse(({ request, contentType }) => parseJsonBody(request, contentType, new URL(request.url).pathname.startsWith('/v1/widget/')))
    .onError(({ code, error, set, request }) => {
      requestLog.markDone(request);
      // Elysia wraps what a body parser throws; our parser throws AppErrors (413, 400).
      const failure = code === 'PARSE' && error.cause instanceof AppError ? error.cause : error;
      if (failure instanceof AppError) {
        set.status = failure.status;
        Object.assign(set.headers, failure.headers);
        return failure.body();
      }
      switch (code) {
        case 'VALIDATION':
          set.status = 400;
          return errorBody('invalid_request', validationMessage(error), validationDetails(error));
        case 'PARSE':
          set.status = 400;
          return errorBody('invalid_request', 'The request body could not be parsed as JSON.');
        case 'NOT_FOUND':
          set.status = 404;
          return errorBody('not_found', `No route for ${request.method} ${new URL(request.url).pathname}.`);
        default: {
          const requestId = requestLog.idOf(request);
          logger.error('unhandled error', { requestId, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error), stack: error instanceof Error ? error.stack : undefined });
          set.status = 500;
          return errorBody('internal', `Something went wrong on our side. Quote request id ${requestId} when reporting it.`);
        }
      }
    })
    .onAfterHandle(({ request }) => {
      requestLog.markDone(request);
    })
    .onAfterResponse(({ request, set }) => {
      requestLog.finish(request, typeof set.status === 'number' ? set.status : 200);
    })
    .use(healthModule({ sqlite: options.database.sqlite }))
    .use(calculatorsModule())
    .use(accountsModule({ config, accounts, tokens, limiter, usage, now, clientIp, publicUrl }))
    .use(domainsModule({ domains, now, tokens, accounts }))
    .use(widgetModule({ accounts, domains, usage, quotas: config.quotas, now, prefill }))
    .use(widgetScriptModule())
    .use(widgetConfigModule({ ...webhook, tokens, accounts }))
    .use(pagesModule({ accounts, config, publicUrl }));

  app.use(docsModule(app));
  peerOf = (request) => app.server?.requestIP(request)?.address;

  return {
    app,
    usage,
    accounts,
    domains,
    tokens,
    logger,
    /** Writes batched counters and webhook outcomes (timer and shutdown). */
    flush() {
      usage.flush();
      statusLog.flush();
    },
  };
}

export type CalcApp = ReturnType<typeof createApp>;

function validationMessage(error: unknown): string {
  const first = (error as { all?: { path?: string; message?: string }[] }).all?.[0];
  if (!first) return 'The request does not match the expected shape.';
  const field = first.path ? first.path.replace(/^\//, '').replaceAll('/', '.') : 'body';
  return `${field || 'body'}: ${first.message ?? 'invalid value'}.`;
}

function validationDetails(error: unknown): { field: string; message: string }[] | undefined {
  const all = (error as { all?: { path?: string; message?: string }[] }).all;
  return all?.slice(0, 10).map((e) => ({ field: (e.path ?? '').replace(/^\//, '').replaceAll('/', '.'), message: e.message ?? 'invalid value' }));
}

export type { Database };
