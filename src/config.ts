import { resolve } from 'node:path';
import { DEFAULT_CALCULATOR_LIMITS, type Plan } from './plans.ts';
import { parseAllowEntry } from './webhook/address-policy.ts';

export interface ServerConfig {
  host: string;
  port: number;
  dataDir: string;
  /** Base URL that embed snippets and the demo page point at. */
  publicUrl: string | null;
  signupDisabled: boolean;
  /** Given by the operator; otherwise generated into the data directory. */
  jwtSecret: string | null;
  /** postgres://… selects PostgreSQL as the shared store; null keeps SQLite in the data directory. */
  databaseUrl: string | null;
  /** Connections to PostgreSQL this server keeps open at most for all but the widget's lookups (docs/scaling.md). */
  databasePool: number;
  /** Connections to PostgreSQL for the widget's key lookups alone (docs/scaling.md). */
  databaseWidgetPool: number;
  /** CALC_WEBHOOK_KEY (32 bytes, base64 or hex); otherwise generated into the data directory. */
  webhookKey: Uint8Array | null;
  jwtLifetimeSeconds: number;
  /** A session token at most this old may read or rotate the signing secret without the password (docs/security.md). */
  freshAuthSeconds: number;
  trustProxy: readonly string[];
  quotas: Readonly<Record<Plan, number>>;
  /** Calculators of their own an account may have, per plan (docs/calculators.md, "Plan limits"). */
  calculatorLimits: Readonly<Record<Plan, number>>;
  /** Per-client limits (docs/api.md, "Rate limits"); 0 turns one off. */
  rates: Readonly<RateSettings>;
  webhookAllowCidrs: readonly string[];
  /**
   * Webhook calls in flight in all: 512 (docs/webhooks.md), or fewer when Bun's HTTP client
   * runs fewer requests at once (BUN_CONFIG_MAX_HTTP_REQUESTS, 256 by default). Past
   * that, Bun would queue calls silently behind hanging ones; refusing them as `busy`
   * keeps every load within its 5 s and visible to the owner.
   */
  webhookMaxInFlight: number;
  demo: boolean;
  /**
   * After SIGTERM/SIGINT: how long requests in progress may run and a failing flush is
   * retried before what is left is closed (CALC_SHUTDOWN_TIMEOUT, seconds).
   */
  shutdownTimeoutMs: number;
  /** Accept new `jwt-secret`/`webhook-key` files for a database whose files are lost. */
  regenerateSecrets: boolean;
  /** Multiplies every wait of the delivery retry schedule (docs/results.md, "Retries"). */
  deliveryBackoffScale: number;
  /** Results visitors may send per month, per plan (docs/results.md, "The monthly allowance"); none on Free. */
  submissions: Readonly<Record<Plan, number>>;
  /** Days a result is kept (docs/results.md, "How long results are kept"). */
  resultsRetentionDays: number;
}

/** The flags `calc serve` accepts; each falls back to its environment variable. */
export interface ServeFlags {
  host?: string;
  port?: number;
  data?: string;
  'public-url'?: string;
  'disable-signup'?: boolean;
  'trust-proxy'?: string;
  'quota-free'?: number;
  'quota-base'?: number;
  'quota-extra'?: number;
  'calculators-free'?: number;
  'calculators-base'?: number;
  'calculators-extra'?: number;
  'rate-widget-per-minute'?: number;
  'rate-widget-per-day'?: number;
  'rate-signup-per-hour'?: number;
  'rate-clients-max'?: number;
  'rate-signin-per-minute'?: number;
  'rate-signin-address-per-minute'?: number;
  'fresh-auth-seconds'?: number;
  demo?: boolean;
  'regenerate-secrets'?: boolean;
  'database-url'?: string;
  'database-pool'?: number;
  'database-widget-pool'?: number;
  /** A decimal factor, as typed (oclif has no float flags). */
  'delivery-backoff-scale'?: string;
  'submissions-base'?: number;
  'submissions-extra'?: number;
  'results-retention-days'?: number;
}

export interface RateSettings {
  /** Widget calls (verify, load, register-domain) per client address and API key. */
  widgetPerMinute: number;
  widgetPerDay: number;
  /** Sign-ups per client address. */
  signupPerHour: number;
  /** Clients the widget limiter keeps counts for at most (its memory bound). */
  clientsMax: number;
  /** Successful sign-ins per minute per account, and per client address. */
  signInPerMinute: number;
  signInAddressPerMinute: number;
}

const DEFAULT_RATES: Readonly<RateSettings> = {
  widgetPerMinute: 120,
  widgetPerDay: 2_000,
  signupPerHour: 10,
  clientsMax: 100_000,
  signInPerMinute: 10,
  signInAddressPerMinute: 30,
};

const DEFAULT_FRESH_AUTH_SECONDS = 300;

export const WEBHOOK_MAX_IN_FLIGHT = 512;
/** Bun's HTTP client runs at most this many requests at once unless the variable raises it. */
const BUN_DEFAULT_MAX_HTTP_REQUESTS = 256;

/** Under systemd's usual stop timeout of 10 s, with room for the flush and the exit. */
const DEFAULT_SHUTDOWN_TIMEOUT_SECONDS = 8;

/** Measured on the widget load path: docs/performance.md, "Pool size and prepared statements". */
export const DEFAULT_DATABASE_POOL = 4;
export const DEFAULT_WIDGET_POOL = 2;
const MAX_DATABASE_POOL = 1000;

const DEFAULT_QUOTAS: Readonly<Record<Plan, number>> = { free: 1_000, base: 100_000, extra: 1_000_000 };
/** Results visitors may send per month; Free has no results (src/plans.ts, `hasResults`). */
const DEFAULT_SUBMISSIONS: Readonly<Record<Plan, number>> = { free: 0, base: 1_000, extra: 100_000 };
const DEFAULT_RESULTS_RETENTION_DAYS = 365;

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

/**
 * The only reader of the environment for server settings: flags win over
 * variables, everything is validated, and the result is frozen.
 */
export function loadServerConfig(flags: ServeFlags, env: Env = process.env): ServerConfig {
  const host = flags.host ?? env.CALC_HOST ?? '127.0.0.1';
  const port = integer('port', flags.port ?? env.CALC_PORT ?? 8787, 0, 65535);
  const publicUrl = flags['public-url'] ?? env.CALC_PUBLIC_URL ?? null;
  if (publicUrl !== null) checkPublicUrl(publicUrl);
  const config: ServerConfig = {
    host,
    port,
    dataDir: resolve(flags.data ?? env.CALC_DATA_DIR ?? './data'),
    publicUrl: publicUrl?.replace(/\/+$/, '') ?? null,
    signupDisabled: flags['disable-signup'] ?? truthy(env.CALC_DISABLE_SIGNUP),
    jwtSecret: nonEmpty(env.CALC_JWT_SECRET),
    databaseUrl: databaseUrl(flags['database-url'] ?? env.CALC_DATABASE_URL),
    databasePool: integer(
      'database-pool',
      flags['database-pool'] ?? env.CALC_DATABASE_POOL ?? DEFAULT_DATABASE_POOL,
      1,
      MAX_DATABASE_POOL,
    ),
    databaseWidgetPool: integer(
      'database-widget-pool',
      flags['database-widget-pool'] ?? env.CALC_DATABASE_WIDGET_POOL ?? DEFAULT_WIDGET_POOL,
      1,
      MAX_DATABASE_POOL,
    ),
    webhookKey: webhookKey(env.CALC_WEBHOOK_KEY),
    jwtLifetimeSeconds: integer('CALC_JWT_LIFETIME', env.CALC_JWT_LIFETIME ?? 7 * 24 * 3600, 60, 365 * 24 * 3600),
    freshAuthSeconds: integer(
      'fresh-auth-seconds',
      flags['fresh-auth-seconds'] ?? env.CALC_FRESH_AUTH_SECONDS ?? DEFAULT_FRESH_AUTH_SECONDS,
      0,
      24 * 3600,
    ),
    trustProxy: cidrList('trust-proxy', flags['trust-proxy'] ?? env.CALC_TRUST_PROXY),
    quotas: readQuotas(flags, env),
    calculatorLimits: readCalculatorLimits(flags, env),
    rates: readRates(flags, env),
    webhookAllowCidrs: cidrList('CALC_WEBHOOK_ALLOW_CIDRS', env.CALC_WEBHOOK_ALLOW_CIDRS),
    webhookMaxInFlight: Math.min(
      WEBHOOK_MAX_IN_FLIGHT,
      integer('BUN_CONFIG_MAX_HTTP_REQUESTS', env.BUN_CONFIG_MAX_HTTP_REQUESTS ?? BUN_DEFAULT_MAX_HTTP_REQUESTS, 1),
    ),
    demo: flags.demo ?? false,
    shutdownTimeoutMs: seconds('CALC_SHUTDOWN_TIMEOUT', env.CALC_SHUTDOWN_TIMEOUT ?? DEFAULT_SHUTDOWN_TIMEOUT_SECONDS),
    regenerateSecrets: flags['regenerate-secrets'] ?? false,
    deliveryBackoffScale: scale(
      'delivery-backoff-scale',
      flags['delivery-backoff-scale'] ?? env.CALC_DELIVERY_BACKOFF_SCALE ?? 1,
    ),
    submissions: {
      free: DEFAULT_SUBMISSIONS.free,
      base: integer(
        'submissions-base',
        flags['submissions-base'] ?? env.CALC_SUBMISSIONS_BASE ?? DEFAULT_SUBMISSIONS.base,
        0,
      ),
      extra: integer(
        'submissions-extra',
        flags['submissions-extra'] ?? env.CALC_SUBMISSIONS_EXTRA ?? DEFAULT_SUBMISSIONS.extra,
        0,
      ),
    },
    resultsRetentionDays: integer(
      'results-retention-days',
      flags['results-retention-days'] ?? env.CALC_RESULTS_RETENTION_DAYS ?? DEFAULT_RESULTS_RETENTION_DAYS,
      1,
      36_500,
    ),
  };
  if (config.jwtSecret !== null && config.jwtSecret.length < 32) {
    throw new ConfigError('CALC_JWT_SECRET must be at least 32 characters long.');
  }
  // Every server on a shared database must sign and seal with the same secrets, so they
  // cannot be generated per data directory.
  if (config.databaseUrl !== null && (config.jwtSecret === null || config.webhookKey === null)) {
    throw new ConfigError(
      'With a database URL, set CALC_JWT_SECRET and CALC_WEBHOOK_KEY: every server on the database needs the same secrets.',
    );
  }
  return Object.freeze(config);
}

/** The data directory for operator commands: `--data`, else `CALC_DATA_DIR`, else `./data`. */
export function dataDirFrom(flag: string | undefined, env: Env = process.env): string {
  return resolve(flag ?? env.CALC_DATA_DIR ?? './data');
}

/** Monthly load quotas per plan: flags, else `CALC_QUOTA_*`, else the defaults. */
export function readQuotas(flags: ServeFlags = {}, env: Env = process.env): Record<Plan, number> {
  return {
    free: integer('quota-free', flags['quota-free'] ?? env.CALC_QUOTA_FREE ?? DEFAULT_QUOTAS.free, 0),
    base: integer('quota-base', flags['quota-base'] ?? env.CALC_QUOTA_BASE ?? DEFAULT_QUOTAS.base, 0),
    extra: integer('quota-extra', flags['quota-extra'] ?? env.CALC_QUOTA_EXTRA ?? DEFAULT_QUOTAS.extra, 0),
  };
}

/** Calculators of their own per plan: flags, else `CALC_CALCULATORS_*`, else the defaults. */
function readCalculatorLimits(flags: ServeFlags, env: Env): Record<Plan, number> {
  const read = (plan: Plan) =>
    integer(
      `calculators-${plan}`,
      flags[`calculators-${plan}`] ?? env[`CALC_CALCULATORS_${plan.toUpperCase()}`] ?? DEFAULT_CALCULATOR_LIMITS[plan],
      0,
    );
  return { free: read('free'), base: read('base'), extra: read('extra') };
}

function readRates(flags: ServeFlags, env: Env): RateSettings {
  const read = (flag: keyof ServeFlags & `rate-${string}`, variable: string, fallback: number, min = 0) =>
    integer(flag, (flags[flag] as number | undefined) ?? env[variable] ?? fallback, min);
  return {
    widgetPerMinute: read('rate-widget-per-minute', 'CALC_RATE_WIDGET_PER_MINUTE', DEFAULT_RATES.widgetPerMinute),
    widgetPerDay: read('rate-widget-per-day', 'CALC_RATE_WIDGET_PER_DAY', DEFAULT_RATES.widgetPerDay),
    signupPerHour: read('rate-signup-per-hour', 'CALC_RATE_SIGNUP_PER_HOUR', DEFAULT_RATES.signupPerHour),
    clientsMax: read('rate-clients-max', 'CALC_RATE_CLIENTS_MAX', DEFAULT_RATES.clientsMax, 1),
    signInPerMinute: read('rate-signin-per-minute', 'CALC_RATE_SIGNIN_PER_MINUTE', DEFAULT_RATES.signInPerMinute),
    signInAddressPerMinute: read(
      'rate-signin-address-per-minute',
      'CALC_RATE_SIGNIN_ADDRESS_PER_MINUTE',
      DEFAULT_RATES.signInAddressPerMinute,
    ),
  };
}

function integer(name: string, value: string | number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const n = typeof value === 'number' ? value : /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${value}".`);
  }
  return n;
}

/** A duration in seconds (fractions allowed, up to an hour), as milliseconds. */
function seconds(name: string, value: string | number): number {
  const n = typeof value === 'number' ? value : /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isFinite(n) || n <= 0 || n > 3600) {
    throw new ConfigError(`${name} must be a number of seconds above 0 and at most 3600, got "${value}".`);
  }
  return Math.round(n * 1000);
}

function truthy(value: string | undefined): boolean {
  return value !== undefined && ['1', 'true', 'yes', 'on'].includes(value.trim().toLowerCase());
}

/** The database URL: null (SQLite), else a postgres:// or postgresql:// URL. */
export function databaseUrl(value: string | undefined): string | null {
  const url = nonEmpty(value);
  if (url === null) return null;
  if (!/^postgres(ql)?:\/\/./.test(url))
    throw new ConfigError(
      '--database-url (CALC_DATABASE_URL) must be a postgres:// URL, such as postgres://calc@db.internal/calc.',
    );
  return url;
}

/** CALC_WEBHOOK_KEY: 32 bytes as 64 hex digits or base64. */
export function webhookKey(value: string | undefined): Uint8Array | null {
  const text = nonEmpty(value)?.trim();
  if (text === undefined || text === null) return null;
  const bytes = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (bytes.length !== 32)
    throw new ConfigError('CALC_WEBHOOK_KEY must be 32 bytes as 64 hex digits or base64 (openssl rand -hex 32).');
  return new Uint8Array(bytes);
}

function nonEmpty(value: string | undefined): string | null {
  return value !== undefined && value.trim() !== '' ? value : null;
}

/** A comma list of CIDRs (or single addresses), checked with the webhook guard's own strict parser. */
function cidrList(name: string, value: string | undefined): string[] {
  if (!value || value.trim() === '') return [];
  return value.split(',').map((entry) => {
    const cidr = entry.trim();
    try {
      const [address, bits] = parseAllowEntry(cidr);
      return `${address.toString()}/${bits}`;
    } catch {
      throw new ConfigError(`${name}: "${cidr}" is not a CIDR such as 10.0.0.0/8 or fd00::/8.`);
    }
  });
}

function checkPublicUrl(value: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`public URL "${value}" is not an absolute URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`public URL "${value}" must use http or https.`);
  }
}

/** A factor above 0 and at most 100 (fractions allowed), for the delivery retry schedule. */
function scale(name: string, value: string | number): number {
  const n = typeof value === 'number' ? value : /^\d*\.?\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isFinite(n) || n <= 0 || n > 100) {
    throw new ConfigError(`${name} must be a number above 0 and at most 100, got "${value}".`);
  }
  return n;
}
