/** The real app inside the bench process, for the benches that drive it from a browser. */
import { join } from 'node:path';
import { createApp } from '../../src/app.ts';
import type { AccountsStore } from '../../src/db/accounts-store.ts';
import { loadServerConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/client.ts';
import { silentLogger } from '../../src/logger.ts';

export interface InProcessApp extends AsyncDisposable {
  port: number;
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** The store, for what an operator does (`calc admin accounts set-plan`). */
  accounts: AccountsStore;
}

/**
 * The app on a real SQLite database under `work`, listening on 127.0.0.1 (a free port),
 * with fresh random secrets and no log output (logging would measure the terminal).
 * `env` as the server reads it (CALC_WEBHOOK_ALLOW_CIDRS, say).
 */
export function startInProcessApp(work: string, env: Record<string, string> = {}): InProcessApp {
  const config = loadServerConfig({ data: join(work, 'data'), host: '127.0.0.1', port: 0 }, env);
  const database = openDatabase(config.dataDir);
  const { app, accounts } = createApp({
    config,
    database,
    jwtSecret: crypto.getRandomValues(new Uint8Array(32)),
    headerKey: crypto.getRandomValues(new Uint8Array(32)),
    logger: silentLogger,
  });
  app.listen({ hostname: '127.0.0.1', port: 0 });
  const port = app.server?.port;
  if (!port) throw new Error('the app did not listen');
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    accounts,
    async [Symbol.asyncDispose]() {
      await app.stop(true);
      database.close();
    },
  };
}
