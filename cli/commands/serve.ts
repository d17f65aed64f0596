import { Flags } from '@oclif/core';
import { loadServerConfig } from '../../src/config.ts';
import { startServer } from '../../src/main.ts';
import { BaseCommand } from '../base-command.ts';

export default class Serve extends BaseCommand {
  static override summary = 'Run the calc server: API, widget script, demo page and the embedded SQLite store.';
  static override description =
    'Holds the data directory for its lifetime: a second server on it exits 1. ' +
    'Listens until SIGTERM or SIGINT, then lets requests in progress finish for at most CALC_SHUTDOWN_TIMEOUT seconds (default 8), ' +
    'closes the rest and flushes usage counters; if they cannot be written it saves them to usage-pending.json (added on the next start) and exits 1. ' +
    'Every flag also reads an environment variable; the JWT secret comes from CALC_JWT_SECRET or is generated into the data directory.';
  static override enableJsonFlag = false;
  static override examples = [
    '<%= config.bin %> serve',
    '<%= config.bin %> serve --demo',
    '<%= config.bin %> serve --host 0.0.0.0 --port 8080 --data /var/lib/calc --public-url https://calc.example.com',
  ];

  static override flags = {
    host: Flags.string({ description: 'listen address [env: CALC_HOST] (default: 127.0.0.1)' }),
    port: Flags.integer({
      description: 'listen port, 0 picks a free one [env: CALC_PORT] (default: 8787)',
      min: 0,
      max: 65535,
    }),
    data: Flags.string({
      description: 'data directory for calc.db and generated secrets [env: CALC_DATA_DIR] (default: ./data)',
    }),
    'database-url': Flags.string({
      description:
        'postgres://… : keep the data in PostgreSQL, shared by every server on it (needs CALC_JWT_SECRET and CALC_WEBHOOK_KEY) [env: CALC_DATABASE_URL] (default: SQLite in the data directory)',
    }),
    'database-pool': Flags.integer({
      description:
        'connections to PostgreSQL this server keeps open at most, besides the widget pool; see docs/scaling.md [env: CALC_DATABASE_POOL] (default: 4)',
      min: 1,
    }),
    'database-widget-pool': Flags.integer({
      description:
        "connections to PostgreSQL for the widget's key lookups alone; see docs/scaling.md [env: CALC_DATABASE_WIDGET_POOL] (default: 2)",
      min: 1,
    }),
    'public-url': Flags.string({
      description: 'public base URL used in embed snippets [env: CALC_PUBLIC_URL] (default: the listen address)',
    }),
    'disable-signup': Flags.boolean({
      description: 'refuse POST /v1/auth/signup [env: CALC_DISABLE_SIGNUP]',
      allowNo: false,
    }),
    'trust-proxy': Flags.string({
      description: 'comma list of proxy CIDRs whose X-Forwarded-For is believed [env: CALC_TRUST_PROXY]',
    }),
    'quota-free': Flags.integer({
      description: 'monthly widget loads on Free [env: CALC_QUOTA_FREE] (default: 1000)',
      min: 0,
    }),
    'quota-base': Flags.integer({
      description: 'monthly widget loads on Base [env: CALC_QUOTA_BASE] (default: 100000)',
      min: 0,
    }),
    'quota-extra': Flags.integer({
      description: 'monthly widget loads on Extra [env: CALC_QUOTA_EXTRA] (default: 1000000)',
      min: 0,
    }),
    'calculators-free': Flags.integer({
      description: 'calculators of their own an account may have on Free [env: CALC_CALCULATORS_FREE] (default: 1)',
      min: 0,
    }),
    'calculators-base': Flags.integer({
      description: 'calculators of their own an account may have on Base [env: CALC_CALCULATORS_BASE] (default: 10)',
      min: 0,
    }),
    'calculators-extra': Flags.integer({
      description: 'calculators of their own an account may have on Extra [env: CALC_CALCULATORS_EXTRA] (default: 100)',
      min: 0,
    }),
    'rate-widget-per-minute': Flags.integer({
      description:
        'widget calls per minute per client address and API key, 0 = no limit [env: CALC_RATE_WIDGET_PER_MINUTE] (default: 120)',
      min: 0,
    }),
    'rate-widget-per-day': Flags.integer({
      description:
        'widget calls per day per client address and API key, 0 = no limit [env: CALC_RATE_WIDGET_PER_DAY] (default: 2000)',
      min: 0,
    }),
    'rate-signup-per-hour': Flags.integer({
      description: 'sign-ups per hour per client address, 0 = no limit [env: CALC_RATE_SIGNUP_PER_HOUR] (default: 10)',
      min: 0,
    }),
    'delivery-backoff-scale': Flags.string({
      description:
        'multiplies every wait of the results delivery retry schedule (and its 3- and 5-day limits), for tests and drills; see docs/results.md [env: CALC_DELIVERY_BACKOFF_SCALE] (default: 1)',
    }),
    'submissions-base': Flags.integer({
      description:
        'results visitors may send each month on Base (docs/results.md) [env: CALC_SUBMISSIONS_BASE] (default: 1000)',
      min: 0,
    }),
    'submissions-extra': Flags.integer({
      description:
        'results visitors may send each month on Extra (docs/results.md) [env: CALC_SUBMISSIONS_EXTRA] (default: 100000)',
      min: 0,
    }),
    'results-retention-days': Flags.integer({
      description:
        'days a result is kept before the hourly housekeeping deletes it [env: CALC_RESULTS_RETENTION_DAYS] (default: 365)',
      min: 1,
    }),
    'rate-clients-max': Flags.integer({
      description:
        'clients the widget limiter keeps counts for, its memory bound; a client over its limit is never forgotten before its window ends [env: CALC_RATE_CLIENTS_MAX] (default: 100000)',
      min: 1,
    }),
    'rate-signin-per-minute': Flags.integer({
      description:
        'successful sign-ins per minute per account, 0 = no limit [env: CALC_RATE_SIGNIN_PER_MINUTE] (default: 10)',
      min: 0,
    }),
    'rate-signin-address-per-minute': Flags.integer({
      description:
        'successful sign-ins per minute per client address, 0 = no limit [env: CALC_RATE_SIGNIN_ADDRESS_PER_MINUTE] (default: 30)',
      min: 0,
    }),
    'fresh-auth-seconds': Flags.integer({
      description:
        'a session token at most this old reads or rotates the signing secret without the password; 0 = always ask [env: CALC_FRESH_AUTH_SECONDS] (default: 300)',
      min: 0,
    }),
    demo: Flags.boolean({ description: 'on an empty database, seed a demo account whose page origin is registered' }),
    'regenerate-secrets': Flags.boolean({
      description:
        'create jwt-secret or webhook-key anew when lost from a data directory that holds a database (signs every owner out; stored webhook headers become unreadable)',
    }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Serve);
    const config = loadServerConfig({ ...flags, 'disable-signup': flags['disable-signup'] || undefined });
    // Listen for the signals before starting: one that arrives while the server starts
    // (or right after its first line) stops it once it runs, instead of killing it.
    let signalled: () => void = () => {};
    const stopRequested = new Promise<void>((resolve) => {
      signalled = resolve;
    });
    const onSignal = () => {
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
      signalled();
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
    const server = await startServer(config).catch((error) => {
      onSignal();
      throw error;
    });
    // One write, so a reader that waits for the listening line has the demo lines too.
    const lines = [
      `calc listening on ${server.listenUrl}${server.url === server.listenUrl ? '' : ` (public URL ${server.url})`}`,
    ];
    if (server.demo) {
      lines.push(
        'Demo account created (shown once):',
        `  email:    ${server.demo.email}`,
        `  password: ${server.demo.password}`,
        `  API key:  ${server.demo.apiKey}`,
        `  origins:  ${server.demo.origins.join(', ')}`,
      );
    }
    if (config.demo) lines.push(`Demo page: ${server.url}/`);
    lines.push(
      `Dashboard: ${server.url}/dashboard${server.demo ? ` (sign in with ${server.demo.email} and the password above)` : ''}`,
    );
    process.stdout.write(`${lines.join('\n')}\n`);
    await stopRequested;
    try {
      await server.stop();
    } catch (error) {
      // Exit non-zero: a supervisor and the operator must see that counts did not reach the database.
      process.stderr.write(`shutdown failed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    }
  }
}
