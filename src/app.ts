import { type AnyElysia, Elysia } from 'elysia';
import type { ServerConfig } from './config.ts';
import { type Backend, loginLimiterOf, probesOf, storesOf } from './db/backend.ts';
import { requestClientIp } from './http/client-ip.ts';
import { createAccessLog } from './http/access-log.ts';
import { elysiaGroup, httpConventions } from './http/conventions.ts';
import { docsModule } from './http/docs.ts';
import type { RouteLike } from './http/openapi.ts';
import type { RouteGroup } from './http/route-group.ts';
import { nativeRoutes } from './http/native-route.ts';
import { signupRateLimit, widgetRateLimit } from './http/rate-limit.ts';
import { createLogger, type Logger } from './logger.ts';
import { accountsModule } from './modules/accounts/index.ts';
import { accountCalculatorsModule } from './modules/account-calculators/index.ts';
import { createCalculatorResolver } from './calculator-resolver.ts';
import { createPasswords } from './security/passwords.ts';
import { createTokenService } from './security/session-tokens.ts';
import { calculatorsModule } from './modules/calculators/index.ts';
import { dashboardModule } from './modules/dashboard/index.ts';
import { domainsModule } from './modules/domains/index.ts';
import { createReadiness, healthModule } from './modules/health/index.ts';
import { pagesModule } from './modules/pages/index.ts';
import { routeGroups } from './route-groups.ts';
import { usageModule } from './modules/usage/index.ts';
import { limitsModule } from './modules/limits/index.ts';
import { createSigningSecrets, signingSecretModule } from './modules/signing-secret/index.ts';
import { loadedCalculator, widgetModule, widgetRoutes } from './modules/widget/index.ts';
import { createCalculatorIds } from './require-calculator.ts';
import { createHeaderCipher } from './security/header-cipher.ts';
import { createStatusLog, loadPrefill, type PullDeps, widgetConfigModule } from './modules/widget-config/index.ts';
import { widgetScriptModule } from './modules/widget-script/index.ts';
import { createUsageCounter } from './usage/counter.ts';
import { createRetention } from './usage/retention.ts';
import { createAddressPolicy } from './webhook/address-policy.ts';
import { resultsEndpointModule } from './modules/results-endpoint/index.ts';
import { createEventQueue } from './delivery/queue.ts';
import { createUsageEvents } from './delivery/usage-events.ts';
import { retrySchedule } from './delivery/schedule.ts';
import { createDeliveryWorker } from './delivery/worker.ts';
import { createInFlightLimiter } from './webhook/in-flight.ts';
import { createPullRate } from './webhook/pull-rate.ts';
import { systemResolver, type Resolver } from './webhook/url-check.ts';
import { resultsModule, resultsSubmitModule } from './modules/results/index.ts';
import { createResultsConfigCache } from './results/config-cache.ts';
import { createResultsRetention } from './results/retention.ts';
import pkg from '../package.json' with { type: 'json' };

export interface AppOptions {
  config: ServerConfig;
  database: Backend;
  jwtSecret: Uint8Array | string;
  /** 32 bytes: encrypts webhook header values at rest. */
  headerKey: Uint8Array;
  /** The webhook guard's DNS lookup (tests pass their own) and time budget. */
  resolve?: Resolver;
  webhookTimeoutMs?: number;
  now?: () => Date;
  logger?: Logger;
  /** The base URL when the operator gave none (the listen address, known after listen). */
  fallbackPublicUrl?: () => string;
  /** This server's name on delivery leases; the same after a restart on one data directory. */
  serverId?: string;
}

/**
 * Builds the HTTP application from its dependencies; never listens. Tests call
 * `handle(new Request(…))`; `calc serve` calls `app.listen`.
 */
export function createApp(options: AppOptions) {
  const { config } = options;
  const now = options.now ?? (() => new Date());
  const logger = options.logger ?? createLogger();
  const stores = storesOf(options.database);
  const { accounts, domains } = stores;
  const usageStore = stores.usage;
  // The load that reaches an account's limit is written before it is answered (once per
  // account and month): a crash then cannot give that account's quota back.
  const flushUsageNow = () =>
    usage
      .flush()
      .catch((error: unknown) => logger.error('flush of usage counters failed; will retry', { error: String(error) }));
  const usage = createUsageCounter(usageStore, flushUsageNow, {
    // Made once the delivery loop exists (below); the first load comes after.
    onThreshold: (crossing) => usageEvents.notify(crossing),
    // Only while the database stays unreachable long enough for the cap to fill up.
    onDropped: ({ loads, calls, refused, skipped, funnel, cap }) =>
      logger.error(
        `usage counts waiting for the database reached ${cap} per-day rows: ${loads} loads and ${calls} webhook calls since the last flush attempt count towards their month but are missing from per-day usage`,
        {
          droppedLoads: loads,
          droppedCalls: calls,
          droppedRefusals: refused,
          droppedSkippedPulls: skipped,
          droppedFunnelSteps: funnel,
          maxPendingDayRows: cap,
        },
      ),
  });
  const retention = createRetention({ store: usageStore, domains, now, logger });
  const tokens = createTokenService(options.jwtSecret, config.jwtLifetimeSeconds, now);
  // At most one argon2 run per core, with a bounded queue (docs/security.md).
  const passwords = createPasswords();
  const limiter = loginLimiterOf(options.database, () => now().getTime(), {
    perAccount: config.rates.signInPerMinute,
    perAddress: config.rates.signInAddressPerMinute,
  });
  const accessLog = createAccessLog(logger);
  const publicUrl = () => config.publicUrl ?? options.fallbackPublicUrl?.() ?? `http://${config.host}:${config.port}`;
  const { configs } = stores;
  const statusLog = createStatusLog(configs);
  const cipher = createHeaderCipher(options.headerKey);
  const signingSecrets = createSigningSecrets({
    signingSecrets: stores.signingSecrets,
    cipher,
    now,
  });
  // Accounts made before signing secrets existed get theirs now (sealing needs the key,
  // which SQL migrations do not have); the server listens once this is done.
  const ready = signingSecrets.backfill().then(() => {});
  const webhook: PullDeps = {
    configs,
    cipher,
    signingSecrets,
    statusLog,
    limiter: createInFlightLimiter({ perAccount: 8, total: config.webhookMaxInFlight }),
    resolve: options.resolve ?? systemResolver,
    policy: createAddressPolicy({ allowCidrs: [...config.webhookAllowCidrs] }),
    logger,
    now,
    userAgent: `calc-webhook/${pkg.version} (+${config.publicUrl ?? 'self-hosted'})`,
    timeoutMs: options.webhookTimeoutMs,
  };
  // Results delivery: the loop starts with the server (`delivery.start()`), not here.
  const delivery = createDeliveryWorker({
    deliveries: stores.deliveries,
    endpoints: stores.resultsEndpoints,
    cipher,
    post: {
      resolve: webhook.resolve,
      policy: webhook.policy,
      userAgent: webhook.userAgent,
      timeoutMs: webhook.timeoutMs,
    },
    schedule: retrySchedule(config.deliveryBackoffScale),
    now,
    logger,
    owner: options.serverId ?? crypto.randomUUID(),
  });
  const events = createEventQueue({ deliveries: stores.deliveries, wake: delivery.wake, now });
  const usageEvents = createUsageEvents({ deliveries: stores.deliveries, wake: delivery.wake, now, logger });
  // The peer address is known to the server only once it listens. The server is held from
  // its start hook: reading `app.server` (a getter) on every widget call cost the per-client
  // limit about 2 µs a load, a tenth of a load's time on the server.
  let server: { requestIP(request: Request): { address: string } | null } | null = null;
  const clientIp = requestClientIp(config.trustProxy, (request) => server?.requestIP(request)?.address);

  // Catalogue templates and published custom calculators, compiled and cached once per
  // version with the load answer's JSON of each; the widget's routes resolve calcIds with it.
  const resolveCalculator = createCalculatorResolver({
    store: stores.customCalculators,
    serialise: (definition, template) => JSON.stringify(loadedCalculator(definition, template)),
  });
  // Which ids refused widget calls are counted under: templates and the accounts' own.
  const calculatorIds = createCalculatorIds({
    store: stores.customCalculators,
    now: () => now().getTime(),
    onError: (error) =>
      logger.warn('a refused widget call could not be counted: the calculator ids could not be read', {
        error: String(error),
      }),
  });

  // Results configs in memory, current by the account row's version (src/results/config-cache.ts).
  const resultsConfigs = createResultsConfigCache({ store: stores.resultsConfigs });
  const resultsRetention = createResultsRetention({
    store: stores.results,
    days: config.resultsRetentionDays,
    now,
    logger,
  });

  const rateDeps = { rates: config.rates, clientIp, now };
  const widgetLimit = widgetRateLimit(rateDeps);
  const signupLimit = signupRateLimit(rateDeps);
  const widgetDeps = {
    accounts,
    domains,
    usage,
    quotas: config.quotas,
    now,
    limit: widgetLimit.limit,
    resolveCalculator,
    calculatorIds,
  };
  const groups = routeGroups();
  const native = nativeRoutes(
    widgetRoutes({
      ...widgetDeps,
      logger,
      prefill: loadPrefill({ ...webhook, usage, pullRate: createPullRate() }),
      results: resultsConfigs.forLoad,
    }),
    groups.widget,
    { logger, accessLog },
  );

  const mounted: { group: RouteGroup; plugin: AnyElysia }[] = [
    {
      group: groups.widget,
      modules: [
        widgetModule(widgetDeps),
        resultsSubmitModule({
          ...widgetDeps,
          results: stores.results,
          configs: resultsConfigs,
          signingSecrets,
          wake: delivery.wakeFor,
          allowances: config.submissions,
        }),
      ],
    },
    { group: groups.public, modules: [calculatorsModule(), widgetScriptModule()] },
    {
      group: groups.owner,
      modules: [
        accountsModule({
          config,
          accounts,
          tokens,
          limiter,
          passwords,
          freshAuthSeconds: config.freshAuthSeconds,
          signupLimit,
          usage,
          usageStore,
          now,
          clientIp,
          publicUrl,
          signingSecrets,
        }),
        signingSecretModule({
          signingSecrets,
          tokens,
          accounts,
          limiter,
          passwords,
          freshAuthSeconds: config.freshAuthSeconds,
          now,
          clientIp,
        }),
        domainsModule({ domains, now, tokens, accounts }),
        widgetConfigModule({
          ...webhook,
          tokens,
          accounts,
          domains,
          resultsConfigs: stores.resultsConfigs,
          results: resultsConfigs,
          resolveCalculator,
          calculators: stores.customCalculators,
        }),
        usageModule({ usage, usageStore, quotas: config.quotas, now, tokens, accounts }),
        accountCalculatorsModule({
          calculators: stores.customCalculators,
          resolve: resolveCalculator,
          limits: config.calculatorLimits,
          calculatorIds,
          now,
          tokens,
          accounts,
        }),
        resultsEndpointModule({
          endpoints: stores.resultsEndpoints,
          deliveries: stores.deliveries,
          worker: delivery,
          cipher,
          resolve: webhook.resolve,
          policy: webhook.policy,
          now,
          tokens,
          accounts,
        }),
        limitsModule({ tokens, accounts }),
        resultsModule({ results: stores.results, resolve: resolveCalculator, now, tokens, accounts }),
      ],
    },
    {
      group: groups.site,
      modules: [
        healthModule({
          readiness: createReadiness({
            ...probesOf(options.database),
            now: () => now().getTime(),
          }),
        }),
        pagesModule({ accounts, config, publicUrl }),
        dashboardModule({ signupEnabled: !config.signupDisabled }),
        // Each route with its group's body rules: the document says which take text/plain.
        docsModule(
          () => [
            ...native.docs.map((route) => ({ ...route, bodyRules: groups.widget.body })),
            ...mounted.flatMap(({ group, plugin }) =>
              plugin.routes.map((route) => ({ ...route, bodyRules: group.body }) as RouteLike),
            ),
          ],
          publicUrl,
        ),
      ],
    },
  ].map(({ group, modules }) => ({ group, plugin: elysiaGroup(group, modules) }));

  // 'typebox' normalisation: the default mirror turns a non-object where an object of
  // optional fields is expected into {} (so `{"config": "x"}` would remove a webhook).
  // `serve.routes` puts the native widget routes in front of Elysia's when it listens.
  const app = new Elysia({ normalize: 'typebox', serve: { routes: native.routes } }).use(
    httpConventions({ logger, accessLog }),
  );
  for (const { plugin } of mounted) app.use(plugin);
  app.onStart((started) => {
    server = started.server;
  });
  app.onStop(() => {
    server = null;
  });

  return {
    app,
    /** Answers a request as the listening server would: native routes first, then Elysia. */
    handle: async (request: Request): Promise<Response> =>
      (await native.match(request)?.(request)) ?? app.handle(request),
    /** Which routes each group holds, and who serves them (what the conventions test walks). */
    routeGroups: [
      { group: groups.widget, native: true, routes: native.docs.map(({ method, path }) => ({ method, path })) },
      ...mounted.map(({ group, plugin }) => ({
        group,
        native: false,
        routes: plugin.routes.map(({ method, path }) => ({ method, path })),
      })),
    ],
    usage,
    accounts,
    domains,
    signingSecrets,
    tokens,
    logger,
    /** Knows the requests in progress: the shutdown keeps their connections (and cuts them at its deadline). */
    accessLog,
    /** Prunes per-day usage past retention, at most hourly (the housekeeping timer). */
    retention,
    /** Deletes results past their retention, at most hourly (the housekeeping timer). */
    resultsRetention,
    /** The widget routes' per-client limiter (its memory bound is tested). */
    widgetLimiter: widgetLimit.limiter,
    /** The results delivery loop: started and stopped with the server. */
    delivery,
    /** Queues events that stand alone for the account's results endpoint (usage events have their own way in). */
    events,
    /** Settles when start-up work on the store (the signing-secret backfill) is done. */
    ready,
    /** Writes batched counters and webhook outcomes (timer and shutdown), and the usage events they crossed. */
    async flush(): Promise<void> {
      const results = await Promise.allSettled([usage.flush(), statusLog.flush()]);
      await usageEvents.settled();
      for (const result of results) if (result.status === 'rejected') throw result.reason;
    },
  };
}
