/**
 * Where the widget routes' time goes (investigation tool; not part of `npm run bench`).
 *
 * Starts, from the sources, servers that add the product's layers one at a time, all
 * built from src's own exports, and measures each with wrk like bench/server.ts does
 * (server pinned to core 1, wrk to core 0, alternated rounds, waits for a quiet machine):
 *
 *   raw          bench/raw-server.ts (the baseline of bench/server.ts)
 *   raw-exe      the same compiled with `bun build --compile` (flags of cli/build.ts)
 *   raw+log      bench/raw-server.ts --log: + request id and one log line per request
 *   native       the widget's native routes (src/http/native-route.ts) on a bare
 *                `Bun.serve`, with a silent logger: body reading, schema check, the
 *                conventions' headers and error envelope, no log line
 *   +log         the same with the real logger (one JSON line per request, batched)
 *   app          createApp (src/app.ts) itself, listening through Elysia, real logger
 *   app0         the same with the per-client widget limit off (both limits 0)
 *   exe          the compiled executable (`calc serve`, built from this tree), as
 *                bench/server.ts runs it
 *
 * The figure to read is the server's CPU time per request (user + system, all threads):
 * it moves much less than req/s when other processes share the machine.
 *
 *   bun bench/server-ablation.ts [variant …]     (env: ROUTES=load,verify ROUNDS=3 SECS=3)
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { compileExecutable } from '../cli/build.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pinned, prepareBinary, SERVER_CORE, serveCommand, startListening, unreachedLimits } from './lib/processes.ts';
import { waitForQuiet } from './lib/proc-stats.ts';
import { progress, ROOT } from './lib/report.ts';
import { median, round1 } from './lib/sampling.ts';
import { wrk, wrkScript } from './lib/wrk.ts';

const VARIANTS = ['raw', 'raw-exe', 'raw+log', 'native', '+log', 'app', 'app0', 'exe'] as const;
type Variant = (typeof VARIANTS)[number];
const API_KEY = 'pk_ablationablationablation0';
const ORIGIN = 'https://shop.example';
/** A quota and per-client limits that one address's loads never reach: the checks still run. */
const BIG = 100_000_000;
const LIMIT_FLAGS = unreachedLimits('free', BIG);

if (process.argv[2] === '--serve') {
  await serve(process.argv[3] as Variant, process.argv[4] as string);
} else {
  await main();
}

/** Child mode: one variant on its own copy of the database. */
async function serve(variant: Variant, dataDir: string): Promise<void> {
  const { openDatabase } = await import('../src/db/client.ts');
  const { createAccountsStore } = await import('../src/db/accounts-store.ts');
  const { createDomainsStore } = await import('../src/db/domains-store.ts');
  const { createUsageStore } = await import('../src/db/usage-store.ts');
  const { createUsageCounter } = await import('../src/usage/counter.ts');
  const { createCustomCalculatorsStore } = await import('../src/db/custom-calculators-store.ts');
  const { createCalculatorResolver } = await import('../src/calculator-resolver.ts');
  const { createCalculatorIds } = await import('../src/require-calculator.ts');
  const { loadedCalculator } = await import('../src/modules/widget/index.ts');
  const { widgetRoutes } = await import('../src/modules/widget/index.ts');
  const { nativeRoutes } = await import('../src/http/native-route.ts');
  const { createAccessLog } = await import('../src/http/access-log.ts');
  const { routeGroups } = await import('../src/route-groups.ts');
  const { createLogger, silentLogger } = await import('../src/logger.ts');
  const { createApp } = await import('../src/app.ts');
  const { loadServerConfig } = await import('../src/config.ts');

  const config = loadServerConfig(
    {
      data: dataDir,
      port: 0,
      'quota-free': BIG,
      'rate-widget-per-minute': variant === 'app0' ? 0 : BIG,
      'rate-widget-per-day': variant === 'app0' ? 0 : BIG,
    },
    {},
  );
  const database = openDatabase(config.dataDir);
  const logger = variant === 'native' ? silentLogger : createLogger();
  let port: number | undefined;
  let flush: () => Promise<void>;
  if (variant === 'app' || variant === 'app0') {
    const built = createApp({
      config,
      database,
      jwtSecret: 'ablation-secret-that-is-long-enough-0123456789',
      headerKey: crypto.getRandomValues(new Uint8Array(32)),
      logger,
    });
    built.app.listen({ hostname: '127.0.0.1', port: 0, maxRequestBodySize: 1024 * 1024 });
    port = built.app.server?.port;
    flush = built.flush;
  } else {
    const usage = createUsageCounter(createUsageStore(database.db));
    const calculators = createCustomCalculatorsStore(database.db);
    const deps = {
      accounts: createAccountsStore(database.db),
      domains: createDomainsStore(database.db),
      usage,
      quotas: config.quotas,
      now: () => new Date(),
      limit: null,
      prefill: () => ({}),
      logger,
      resolveCalculator: createCalculatorResolver({
        store: calculators,
        serialise: (definition, template) => JSON.stringify(loadedCalculator(definition, template)),
      }),
      calculatorIds: createCalculatorIds({ store: calculators, now: () => Date.now() }),
    };
    const native = nativeRoutes(widgetRoutes(deps), routeGroups().widget, {
      logger,
      accessLog: createAccessLog(logger),
    });
    const server = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      maxRequestBodySize: 1024 * 1024,
      routes: native.routes,
      fetch: () => new Response(null, { status: 404 }),
    });
    port = server.port;
    flush = () => usage.flush();
  }
  setInterval(flush, 1000);
  console.log(`${variant} listening on http://127.0.0.1:${port}`);
  process.on('SIGTERM', () => process.exit(0));
}

/** bench/raw-server.ts compiled the way cli/build.ts compiles the product. */
function compiledRawServer(work: string): string {
  const out = join(work, 'raw-server');
  const build = compileExecutable(out, 'bench/raw-server.ts');
  if (!build.ok) throw new Error(`could not compile the raw server:\n${build.output}`);
  return out;
}

async function main(): Promise<void> {
  const wanted = (process.argv.slice(2).length > 0 ? process.argv.slice(2) : [...VARIANTS]) as Variant[];
  for (const v of wanted)
    if (!VARIANTS.includes(v)) throw new Error(`unknown variant ${v}; known: ${VARIANTS.join(', ')}`);
  const routes = (process.env.ROUTES ?? 'load,verify').split(',') as ('load' | 'verify')[];
  const rounds = Number(process.env.ROUNDS ?? 3);
  const secs = Number(process.env.SECS ?? 3);
  const work = mkdtempSync(join(tmpdir(), 'calc-bench-ablation-'));
  const servers: { variant: Variant; url: string; pid: number; stop: () => Promise<unknown> }[] = [];
  try {
    // One template database with an account and its origin, copied for every server.
    const template = join(work, 'template');
    const { openDatabase } = await import('../src/db/client.ts');
    const { createAccountsStore } = await import('../src/db/accounts-store.ts');
    const { createDomainsStore } = await import('../src/db/domains-store.ts');
    const db = openDatabase(template);
    const now = new Date().toISOString();
    await createAccountsStore(db.db).insert({
      id: 'acct_ablation',
      email: 'ablation@example.com',
      passwordHash: 'x',
      plan: 'free',
      apiKey: API_KEY,
      createdAt: now,
    });
    await createDomainsStore(db.db).insert({
      accountId: 'acct_ablation',
      origin: ORIGIN,
      status: 'active',
      createdAt: now,
    });
    db.sqlite.run('PRAGMA wal_checkpoint(TRUNCATE)');
    db.close();

    const script = wrkScript(work, 'body', JSON.stringify({ apiKey: API_KEY, domain: ORIGIN, calcId: 'bmi' }));
    for (const variant of wanted) {
      const dir = join(work, variant.replace(/\W/g, '_'));
      mkdirSync(dir, { recursive: true });
      // The whole directory: a database without its secrets is refused at start.
      cpSync(template, dir, { recursive: true });
      const command =
        variant === 'raw-exe'
          ? [compiledRawServer(work), dir]
          : variant.startsWith('raw')
            ? [process.execPath, join(ROOT, 'bench', 'raw-server.ts'), dir, ...(variant === 'raw+log' ? ['--log'] : [])]
            : variant === 'exe'
              ? serveCommand(prepareBinary(work).path, dir, LIMIT_FLAGS)
              : [process.execPath, import.meta.path, '--serve', variant, dir];
      const started = await startListening(pinned(SERVER_CORE, command), {
        stderrFile: join(work, `${variant.replace(/\W/g, '_')}.log`),
      });
      servers.push({ variant, url: started.url, pid: started.proc.pid, stop: started.stop });
      for (const route of routes) await wrk(`${started.url}/v1/widget/${route}`, script, 2);
    }

    const samples = new Map<string, { cpu: number; rps: number; interference: number }[]>();
    for (let round = 0; round < rounds; round++) {
      for (const route of routes) {
        // Alternate the order so that a drift of the machine does not favour one end.
        for (const server of round % 2 === 0 ? servers : [...servers].reverse()) {
          await waitForQuiet(15_000, 0.15);
          await wrk(`${server.url}/v1/widget/${route}`, script, 1);
          const result = await wrk(`${server.url}/v1/widget/${route}`, script, secs, {
            serverPid: server.pid,
            countIrq: true,
            roundCpu: round1,
          });
          const key = `${route} ${server.variant}`;
          samples.set(key, [
            ...(samples.get(key) ?? []),
            {
              cpu: result.serverCpuUsPerRequest ?? Number.NaN,
              rps: result.requestsPerSec,
              interference: result.interferenceCores ?? 0,
            },
          ]);
          progress(
            `ablation: ${key}: ${Math.round(result.requestsPerSec)} req/s, ${result.serverCpuUsPerRequest} µs CPU/req, other load ${result.interferenceCores} cores`,
          );
        }
      }
    }

    console.log(
      '\nroute   variant        CPU µs/req  vs raw   req/s    vs raw   (medians; samples with other load > 0.25 cores left out)',
    );
    for (const route of routes) {
      const clean = (key: string) => {
        const all = samples.get(key) ?? [];
        const quiet = all.filter((s) => s.interference <= 0.25);
        return quiet.length > 0 ? quiet : all;
      };
      const baseKey = `${route} ${wanted[0]}`;
      const baseCpu = median(clean(baseKey).map((s) => s.cpu));
      const baseRps = median(clean(baseKey).map((s) => s.rps));
      for (const variant of wanted) {
        const s = clean(`${route} ${variant}`);
        const cpu = median(s.map((x) => x.cpu));
        const rps = median(s.map((x) => x.rps));
        console.log(
          `${route.padEnd(7)} ${variant.padEnd(14)} ${cpu.toFixed(1).padStart(9)}  ${(cpu / baseCpu).toFixed(2).padStart(5)}×  ${Math.round(rps).toString().padStart(6)}  ${(rps / baseRps).toFixed(2).padStart(5)}×`,
        );
      }
    }
  } finally {
    for (const server of servers) await server.stop().catch(() => {});
    rmSync(work, { recursive: true, force: true });
  }
  process.exit(0);
}
