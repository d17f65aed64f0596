import { describe, expect, test } from 'bun:test';
import { ConfigError, DEFAULT_DATABASE_POOL, DEFAULT_WIDGET_POOL, loadServerConfig } from '../../../src/config.ts';

describe('server settings', () => {
  test('defaults', () => {
    const config = loadServerConfig({}, {});
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 8787,
      publicUrl: null,
      signupDisabled: false,
      jwtSecret: null,
      trustProxy: [],
      webhookAllowCidrs: [],
    });
    expect(config.quotas).toEqual({ free: 1000, base: 100_000, extra: 1_000_000 });
    expect(config.dataDir.endsWith('/data')).toBe(true);
    expect(Object.isFrozen(config)).toBe(true);
  });

  test('shutdown deadline: CALC_SHUTDOWN_TIMEOUT in seconds, 8 by default, fractions allowed, nonsense refused', () => {
    expect(loadServerConfig({}, {}).shutdownTimeoutMs).toBe(8000);
    expect(loadServerConfig({}, { CALC_SHUTDOWN_TIMEOUT: '2.5' }).shutdownTimeoutMs).toBe(2500);
    for (const bad of ['0', '-1', 'soon', '3601', '']) {
      expect(() => loadServerConfig({}, { CALC_SHUTDOWN_TIMEOUT: bad })).toThrow(ConfigError);
    }
    expect(loadServerConfig({}, {}).regenerateSecrets).toBe(false);
    expect(loadServerConfig({ 'regenerate-secrets': true }, {}).regenerateSecrets).toBe(true);
  });

  test('calculators of their own per plan: 1, 10, 100 by default; flags win over CALC_CALCULATORS_*; nonsense refused', () => {
    expect(loadServerConfig({}, {}).calculatorLimits).toEqual({ free: 1, base: 10, extra: 100 });
    const env = { CALC_CALCULATORS_FREE: '3', CALC_CALCULATORS_EXTRA: '500' };
    expect(loadServerConfig({}, env).calculatorLimits).toEqual({ free: 3, base: 10, extra: 500 });
    expect(loadServerConfig({ 'calculators-free': 0 }, env).calculatorLimits.free).toBe(0);
    for (const bad of ['-1', 'many', '1.5'])
      expect(() => loadServerConfig({}, { CALC_CALCULATORS_BASE: bad })).toThrow(ConfigError);
  });

  test('delivery backoff scale: flag over variable, 1 by default, a factor above 0 up to 100', () => {
    expect(loadServerConfig({}, {}).deliveryBackoffScale).toBe(1);
    expect(loadServerConfig({}, { CALC_DELIVERY_BACKOFF_SCALE: '0.001' }).deliveryBackoffScale).toBe(0.001);
    expect(
      loadServerConfig({ 'delivery-backoff-scale': '0.5' }, { CALC_DELIVERY_BACKOFF_SCALE: '2' }).deliveryBackoffScale,
    ).toBe(0.5);
    for (const bad of ['0', '-1', 'fast', '101', '', '1e3'])
      expect(() => loadServerConfig({}, { CALC_DELIVERY_BACKOFF_SCALE: bad })).toThrow(ConfigError);
  });

  test('PostgreSQL pool sizes: flags over variables, the measured defaults, at least 1', () => {
    expect(loadServerConfig({}, {}).databasePool).toBe(DEFAULT_DATABASE_POOL);
    expect(loadServerConfig({}, { CALC_DATABASE_POOL: '16' }).databasePool).toBe(16);
    expect(loadServerConfig({ 'database-pool': 3 }, { CALC_DATABASE_POOL: '16' }).databasePool).toBe(3);
    for (const bad of ['0', '-2', 'many', '1.5', '1001']) {
      expect(() => loadServerConfig({}, { CALC_DATABASE_POOL: bad })).toThrow(ConfigError);
      expect(() => loadServerConfig({}, { CALC_DATABASE_WIDGET_POOL: bad })).toThrow(ConfigError);
    }
    expect(loadServerConfig({}, {}).databaseWidgetPool).toBe(DEFAULT_WIDGET_POOL);
    expect(loadServerConfig({}, { CALC_DATABASE_WIDGET_POOL: '3' }).databaseWidgetPool).toBe(3);
    expect(loadServerConfig({ 'database-widget-pool': 1 }, { CALC_DATABASE_WIDGET_POOL: '3' }).databaseWidgetPool).toBe(
      1,
    );
  });

  test("limiter size, sign-in limits and the signing secret's freshness: defaults, variables, flags, nonsense refused", () => {
    const defaults = loadServerConfig({}, {});
    expect(defaults.rates).toMatchObject({ clientsMax: 100_000, signInPerMinute: 10, signInAddressPerMinute: 30 });
    expect(defaults.freshAuthSeconds).toBe(300);
    const env = {
      CALC_RATE_CLIENTS_MAX: '500',
      CALC_RATE_SIGNIN_PER_MINUTE: '0',
      CALC_RATE_SIGNIN_ADDRESS_PER_MINUTE: '7',
      CALC_FRESH_AUTH_SECONDS: '0',
    };
    const fromEnv = loadServerConfig({}, env);
    expect(fromEnv.rates).toMatchObject({ clientsMax: 500, signInPerMinute: 0, signInAddressPerMinute: 7 });
    expect(fromEnv.freshAuthSeconds).toBe(0);
    const fromFlags = loadServerConfig(
      {
        'rate-clients-max': 9,
        'rate-signin-per-minute': 3,
        'rate-signin-address-per-minute': 4,
        'fresh-auth-seconds': 60,
      },
      env,
    );
    expect(fromFlags.rates).toMatchObject({ clientsMax: 9, signInPerMinute: 3, signInAddressPerMinute: 4 });
    expect(fromFlags.freshAuthSeconds).toBe(60);
    for (const [name, bad] of [
      ['CALC_RATE_CLIENTS_MAX', '0'],
      ['CALC_RATE_CLIENTS_MAX', 'lots'],
      ['CALC_RATE_SIGNIN_PER_MINUTE', '-1'],
      ['CALC_FRESH_AUTH_SECONDS', '86401'],
      ['CALC_FRESH_AUTH_SECONDS', '5m'],
    ] as const)
      expect(() => loadServerConfig({}, { [name]: bad })).toThrow(ConfigError);
  });

  test('webhook calls in flight: 512, or fewer when Bun runs fewer HTTP requests at once', () => {
    expect(loadServerConfig({}, {}).webhookMaxInFlight).toBe(256);
    expect(loadServerConfig({}, { BUN_CONFIG_MAX_HTTP_REQUESTS: '1024' }).webhookMaxInFlight).toBe(512);
    expect(loadServerConfig({}, { BUN_CONFIG_MAX_HTTP_REQUESTS: '100' }).webhookMaxInFlight).toBe(100);
  });

  test('environment variables, and flags winning over them', () => {
    const env = {
      CALC_HOST: '0.0.0.0',
      CALC_PORT: '9000',
      CALC_DATA_DIR: '/tmp/calc-x',
      CALC_PUBLIC_URL: 'https://calc.example.com/',
      CALC_DISABLE_SIGNUP: 'true',
      CALC_TRUST_PROXY: '10.0.0.0/8, 127.0.0.1',
      CALC_QUOTA_FREE: '5',
      CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.2/32',
      CALC_JWT_SECRET: 'k'.repeat(40),
    };
    const fromEnv = loadServerConfig({}, env);
    expect(fromEnv).toMatchObject({
      host: '0.0.0.0',
      port: 9000,
      dataDir: '/tmp/calc-x',
      publicUrl: 'https://calc.example.com',
      signupDisabled: true,
      trustProxy: ['10.0.0.0/8', '127.0.0.1/32'],
      webhookAllowCidrs: ['127.0.0.2/32'],
      jwtSecret: 'k'.repeat(40),
    });
    expect(fromEnv.quotas.free).toBe(5);
    const fromFlags = loadServerConfig({ host: '::1', port: 0, 'quota-free': 7 }, env);
    expect(fromFlags).toMatchObject({ host: '::1', port: 0 });
    expect(fromFlags.quotas.free).toBe(7);
  });

  test.each([
    [{ CALC_PORT: '70000' }],
    [{ CALC_PORT: 'eighty' }],
    [{ CALC_QUOTA_FREE: '-1' }],
    [{ CALC_TRUST_PROXY: 'not-a-cidr' }],
    [{ CALC_WEBHOOK_ALLOW_CIDRS: '10.0.0.0/99' }],
    [{ CALC_WEBHOOK_ALLOW_CIDRS: '127.1' }],
    [{ CALC_WEBHOOK_ALLOW_CIDRS: '0x7f.0.0.1/32' }],
    [{ CALC_PUBLIC_URL: 'ftp://x' }],
    [{ CALC_JWT_SECRET: 'short' }],
  ])('refuses %p with a clear ConfigError', (env) => {
    expect(() => loadServerConfig({}, env)).toThrow(ConfigError);
  });
});
