import { join } from 'node:path';
import { createAccountsStore } from '../../src/db/accounts-store.ts';
import { openDatabase } from '../../src/db/client.ts';
import { createCustomCalculatorsStore } from '../../src/db/custom-calculators-store.ts';
import { createDomainsStore } from '../../src/db/domains-store.ts';
import { createDeliveryStore } from '../../src/db/delivery-store.ts';
import { createPgDeliveryStore, createPgResultsEndpointStore } from '../../src/db/postgres/delivery-stores.ts';
import { createResultsEndpointStore } from '../../src/db/results-endpoint-store.ts';
import { openPostgres } from '../../src/db/postgres/client.ts';
import { createPgCustomCalculatorsStore } from '../../src/db/postgres/custom-calculators-store.ts';
import {
  createPgAccountsStore,
  createPgDomainsStore,
  createPgSigningSecretsStore,
  createPgUsageStore,
  createPgWidgetConfigStore,
} from '../../src/db/postgres/stores.ts';
import { createSigningSecretsStore } from '../../src/db/signing-secrets-store.ts';
import { createUsageStore } from '../../src/db/usage-store.ts';
import { createWidgetConfigStore } from '../../src/db/widget-config-store.ts';
import type { ThrowawayPostgres } from './postgres.ts';
import { tempDir } from './temp-dir.ts';

export const DIALECTS = ['sqlite', 'postgres'] as const;

/** An account row as the stores take it, on the Free plan, with key `pk_<id>`. */
export const accountRow = (id: string, createdAt = '2026-01-01T00:00:00.000Z') => ({
  id,
  email: `${id}@shop.example`,
  passwordHash: 'h',
  plan: 'free' as const,
  apiKey: `pk_${id}`,
  createdAt,
});
/** A results endpoint row as the stores take it, receiving `events`, made at `at` (ISO-8601). */
export const endpointRow = (accountId: string, events: readonly string[], at: string) => ({
  accountId,
  url: 'https://hooks.example/events',
  events: JSON.stringify(events),
  secret: 'sealed',
  previousSecret: null,
  previousValidUntil: null,
  disabledReason: null,
  failingSince: null,
  createdAt: at,
  updatedAt: at,
});

export type Dialect = (typeof DIALECTS)[number];

/** Every store over a fresh, migrated database of one dialect; `close()` removes it. */
export async function freshStores(dialect: Dialect, pg: () => ThrowawayPostgres) {
  if (dialect === 'sqlite') {
    const dir = tempDir();
    const database = openDatabase(join(dir.path, 'data'));
    return {
      accounts: createAccountsStore(database.db),
      domains: createDomainsStore(database.db),
      usage: createUsageStore(database.db),
      configs: createWidgetConfigStore(database.db),
      signingSecrets: createSigningSecretsStore(database.db),
      customCalculators: createCustomCalculatorsStore(database.db),
      resultsEndpoints: createResultsEndpointStore(database.db),
      deliveries: createDeliveryStore(database.db),
      /** The drizzle database, for writes of the test's own (a transaction). */
      sqlite: database.db,
      close: async () => {
        database.close();
        dir[Symbol.dispose]();
      },
    };
  }
  const opened = await openPostgres(await pg().createDatabase());
  return {
    accounts: createPgAccountsStore(opened.db, opened.widget),
    domains: createPgDomainsStore(opened.db),
    usage: createPgUsageStore(opened.db),
    configs: createPgWidgetConfigStore(opened.db),
    signingSecrets: createPgSigningSecretsStore(opened.db),
    customCalculators: createPgCustomCalculatorsStore(opened.db, opened.widget),
    resultsEndpoints: createPgResultsEndpointStore(opened.db),
    deliveries: createPgDeliveryStore(opened.db),
    postgres: opened.db,
    close: () => opened.close(),
  };
}
