/**
 * The baseline for the widget routes: a bare `Bun.serve` (no framework, no request log)
 * that does the same work as the product's POST /v1/widget/load and /v1/widget/verify —
 * body read and checks, origin normalisation, the Origin header check, the prepared
 * SQLite lookups (account by API key, domain status by (account, origin)), the calculator
 * lookup and the in-memory usage counter — and answers the same JSON.
 *
 *   bun bench/raw-server.ts <dataDir> [--port N] [--host H] [--quota N] [--log] [--no-limit]
 *
 * `--log` (not used by the bench's baseline) adds what the product's HTTP conventions add
 * to every answer, done the cheapest way: an `x-request-id` header and one JSON log line
 * on stderr through the product's logger. It shows what per-request logging costs by itself.
 *
 * The per-client widget limit is app-level work too (a stranger holding a page's public key
 * must not spend the owner's quota, docs/security.md): like the product, the baseline asks
 * the server for each request's peer address and counts (client, key) on the product's
 * `createRateLimiter`, with limits the bench never reaches. `--no-limit` leaves it out, to
 * show what the limit itself costs.
 *
 * App-level work that is not framework work is done the product's way: origins go through
 * the product's `normaliseOrigin` (with its cache) and the calculator's public definition
 * and the answer without pre-fill values are built once, as src/modules/widget/index.ts
 * does, so the ratio measures what the framework and the HTTP conventions (request ids,
 * logs, body checks) cost.
 *
 * `<dataDir>` holds a `calc.db` with the product's schema (a copy of the product's data
 * directory: the bench makes one with VACUUM INTO). It is opened with the product's own
 * `openDatabase` (same pragmas, same migrations). Prints `raw listening on http://…`.
 */
import { openDatabase } from '../src/db/client.ts';
import type { UsageDeltas } from '../src/db/usage-store.ts';
import { catalogueCalculator, getTemplate, type Template } from '../src/calculators/index.ts';
import { matchingOrigins, normaliseOrigin } from '../src/domains/origin.ts';
import { createUsageCounter, dayOf, periodOf } from '../src/usage/counter.ts';
import { AppError, invalidRequest } from '../src/errors.ts';
import { createLogger } from '../src/logger.ts';
import { checkOriginHeader } from '../src/modules/widget/service.ts';
import { createRateLimiter } from '../src/limits/rate-limiter.ts';
import { clientGroup } from '../src/limits/client-group.ts';

const args = process.argv.slice(2);
const VALUE_FLAGS = ['--port', '--host', '--quota'];
const dataDir = args.find((arg, i) => !arg.startsWith('--') && !VALUE_FLAGS.includes(args[i - 1] ?? ''));
const flag = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
if (!dataDir) {
  process.stderr.write('usage: bun bench/raw-server.ts <dataDir> [--port N] [--host H] [--quota N]\n');
  process.exit(2);
}
const port = Number(flag('port') ?? 0);
const hostname = flag('host') ?? '127.0.0.1';
const quota = Number(flag('quota') ?? 100_000_000);
const MAX_BODY_BYTES = 64 * 1024;
const logging = args.includes('--log');
const limited = !args.includes('--no-limit');
const logger = createLogger();

const database = openDatabase(dataDir);
const { sqlite } = database;

interface AccountRow {
  id: string;
  email: string;
  password_hash: string;
  plan: string;
  api_key: string;
  created_at: string;
}

// The same lookups the product prepares (drizzle's select() reads every column).
const accountByKey = sqlite.query<AccountRow, { apiKey: string }>(
  'SELECT id, email, password_hash, plan, api_key, created_at FROM accounts WHERE api_key = $apiKey',
);
const domainStatus = sqlite.query<{ status: 'active' | 'pending' }, { accountId: string; origin: string }>(
  'SELECT status FROM domains WHERE account_id = $accountId AND origin = $origin',
);
const usageLoads = sqlite.query<{ loads: number }, { accountId: string; period: string }>(
  'SELECT loads FROM usage WHERE account_id = $accountId AND period = $period',
);
const usageAdd = sqlite.query<unknown, { accountId: string; period: string; loads: number }>(
  'INSERT INTO usage (account_id, period, loads) VALUES ($accountId, $period, $loads) ON CONFLICT (account_id, period) DO UPDATE SET loads = loads + excluded.loads',
);

const dailyAdd = sqlite.query<
  unknown,
  { accountId: string; day: string; calcId: string; domain: string; loads: number }
>(
  'INSERT INTO usage_daily (account_id, day, calc_id, domain, loads) VALUES ($accountId, $day, $calcId, $domain, $loads) ON CONFLICT (account_id, day, calc_id, domain) DO UPDATE SET loads = loads + excluded.loads',
);

const addDeltas = sqlite.transaction((deltas: UsageDeltas) => {
  for (const delta of deltas.monthly) usageAdd.run(delta);
  for (const delta of deltas.loads) dailyAdd.run(delta);
});

// The product's counter, over a store written with plain prepared statements.
const usage = createUsageCounter({
  loads: async (accountId, period) => usageLoads.get({ accountId, period })?.loads ?? 0,
  // Read only for accounts with a daily cap, which this server's accounts never have.
  loadsOnDay: async () => [],
  addAll: async (deltas) => addDeltas(deltas),
});
const flushTimer = setInterval(() => usage.flush(), 1000);

const CORS = { 'access-control-allow-origin': '*' };
const JSON_HEADERS = { ...CORS, 'content-type': 'application/json' };

// The definition is the bulk of a load answer and never changes: serialised once, and
// the whole answer without pre-fill values built once, as the product does.
const answers = new Map<string, string>();
function loadAnswer(calculator: Template): string {
  const id = calculator.definition.id;
  let json = answers.get(id);
  if (json === undefined) {
    json = `{"calcId":${JSON.stringify(id)},"calculator":${JSON.stringify(catalogueCalculator(calculator))},"values":{}}`;
    answers.set(id, json);
  }
  return json;
}

function fail(error: unknown): Response {
  if (error instanceof AppError) return Response.json(error.body(), { status: error.status, headers: CORS });
  return Response.json({ error: { code: 'internal', message: String(error) } }, { status: 500, headers: CORS });
}

async function readBody(request: Request): Promise<{ apiKey: string; domain: string; calcId: string }> {
  const length = request.headers.get('content-length');
  if (length !== null && Number(length) > MAX_BODY_BYTES)
    throw new AppError('payload_too_large', 'Request bodies are limited to 64 KiB.');
  let body: unknown;
  try {
    body = JSON.parse(await request.text());
  } catch {
    throw invalidRequest('The request body is not valid JSON.');
  }
  const { apiKey, domain, calcId } = (body ?? {}) as Record<string, unknown>;
  if (typeof apiKey !== 'string' || apiKey.length > 200) throw invalidRequest('apiKey: expected a string.');
  if (typeof domain !== 'string' || domain.length > 300) throw invalidRequest('domain: expected a string.');
  if (typeof calcId !== 'string' || calcId.length > 64) throw invalidRequest('calcId: expected a string.');
  return { apiKey, domain, calcId };
}

// The product's default windows (a minute and a day), with limits no bench reaches.
const perClient = createRateLimiter({
  windows: [
    { ms: 60_000, limit: 100_000_000 },
    { ms: 86_400_000, limit: 100_000_000 },
  ],
});

/** key → Origin header → registered domain → calculator → quota, as the product orders them. */
async function authorise(request: Request, count: boolean) {
  const body = await readBody(request);
  if (limited) {
    const wait = perClient.take(`${clientGroup(server.requestIP(request)?.address ?? 'unknown')} ${body.apiKey}`);
    if (wait !== null) throw new AppError('rate_limited', 'Too many widget requests.');
  }
  const { origin, wildcard } = normaliseOrigin(body.domain);
  if (wildcard) throw invalidRequest("domain must be the page's own origin, not a wildcard.");
  const account = body.apiKey.startsWith('pk_') ? accountByKey.get({ apiKey: body.apiKey }) : null;
  if (!account) throw new AppError('invalid_api_key', 'The API key is not valid.');
  checkOriginHeader(origin, request.headers.get('origin'));
  let status: 'active' | 'pending' | 'none' = 'none';
  for (const candidate of matchingOrigins(origin)) {
    const found = domainStatus.get({ accountId: account.id, origin: candidate })?.status;
    if (found === 'active') {
      status = 'active';
      break;
    }
    if (found === 'pending') status = 'pending';
  }
  if (status === 'pending')
    throw new AppError('domain_pending', `${origin} is waiting for the account owner's approval.`);
  if (status === 'none') throw new AppError('domain_not_registered', `${origin} is not registered for this API key.`);
  const calculator = getTemplate(body.calcId);
  if (!calculator) throw new AppError('calculator_not_found', `There is no calculator "${body.calcId}".`);
  const now = new Date();
  const allowed = count
    ? (await usage.tryCount(account.id, dayOf(now), quota, calculator.definition.id, origin)) === 'ok'
    : (await usage.used(account.id, periodOf(now))) < quota;
  if (!allowed) throw new AppError('quota_exceeded', `This account has used its ${quota} widget loads for this month.`);
  return calculator;
}

/** With --log: a request id on the answer and one log line, as the product writes them. */
function logged(handler: (request: Request) => Promise<Response>): (request: Request) => Promise<Response> {
  if (!logging) return handler;
  return async (request) => {
    const startedAt = performance.now();
    const id = crypto.randomUUID();
    const response = await handler(request);
    response.headers.set('x-request-id', id);
    const url = request.url;
    logger.requestLines(request.method, url.slice(url.indexOf('/', url.indexOf('//') + 2)))(
      id,
      response.status,
      Math.round((performance.now() - startedAt) * 100) / 100,
    );
    return response;
  };
}

const server = Bun.serve({
  hostname,
  port,
  maxRequestBodySize: 1024 * 1024,
  routes: {
    '/healthz': { GET: () => Response.json({ status: 'ok' }) },
    '/v1/widget/load': {
      POST: logged(async (request) => {
        try {
          const calculator = await authorise(request, true);
          return new Response(loadAnswer(calculator), { headers: JSON_HEADERS });
        } catch (error) {
          return fail(error);
        }
      }),
    },
    '/v1/widget/verify': {
      POST: logged(async (request) => {
        try {
          const calculator = await authorise(request, false);
          return Response.json({ ok: true, calcId: calculator.definition.id }, { headers: CORS });
        } catch (error) {
          return fail(error);
        }
      }),
    },
  },
  fetch: () => Response.json({ error: { code: 'not_found', message: 'No route.' } }, { status: 404 }),
});

console.log(`raw listening on http://${hostname}:${server.port}`);

const shutdown = async () => {
  clearInterval(flushTimer);
  server.stop(true);
  await usage.flush();
  database.close();
  process.exit(0);
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
